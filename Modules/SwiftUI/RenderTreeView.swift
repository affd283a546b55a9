#if canImport(SwiftUI)
    import CoreGraphics
    import DynamicUI
    import DynamicUIModels
    import DynamicUIRendering
    import Foundation
    import SwiftUI

    /// What a drawn render tree acts on: the model of its dialect (`DynamicScreenViewModel` for
    /// screens, `NodeScope` for node documents). `RenderTreeView` draws every node through it.
    @MainActor
    protocol RenderTreeHost: RenderTreeHosting, Sendable {
        /// The view of a `screen` node: its content inside the dialect's chrome.
        associatedtype ScreenBody: View

        /// How the dialect lays out scroll views, lists, sheets and navigation stacks.
        static var layout: RenderTreeLayout { get }
        // Everything else a drawing of the tree calls is `RenderTreeHosting`'s (DynamicUI).
        /// A `screen` node: `node`'s children with the dialect's chrome (title, toolbar, search…).
        func screen(_ node: RenderNode, chrome: ScreenChrome, item: JSONValue?) -> ScreenBody
    }

    /// Where the two dialects lay out the same kinds differently.
    enum RenderTreeLayout: Sendable {
        /// Screens: the SDK lays the patterns out. Vertical scroll content is padded, several
        /// horizontal children are pages, a list is a `List` unless a list or scroll view holds
        /// it, a sheet has a close button.
        case patterns
        /// Node documents lay themselves out: scroll views add nothing, a list's rows are
        /// stacked where the list is (lines between them when asked), a sheet is closed by the
        /// document's own buttons and a navigation stack is one.
        case document
    }

    /// One node of the render tree and, through it, its subtree, for either dialect. Every
    /// `RenderKind` is mapped here (the switch has no `default`, so a new kind is a compile error).
    struct RenderTreeView<Host: RenderTreeHost>: View {
        let node: RenderNode
        let host: Host
        /// The list item the node was built for (rows and their controls fire actions with it).
        var item: JSONValue?

        var body: some View {
            content
                .modifier(SlotSizing(layout: node.layout))
                // Applied to every node: a style or log id that comes or goes keeps the subtree.
                // A button's or link's style is drawn inside its label (`buttonLabel`) instead.
                .modifier(NodeStyleModifier(style: stylesLabel ? nil : node.style, holdsText: holdsStyledText))
                .onAppear { if let logId = node.logId { host.recordImpression(logId) } }
                .modifier(NodeTransition(transition: node.transition))
                .modifier(
                    VisibilityReporter(id: node.id, visibility: node.visibility) { [host] id, visibility, share in
                        host.visibilityChanged(of: id, visibility: visibility, fraction: share)
                    })
        }

        @ViewBuilder
        private var content: some View {
            switch node.kind {
            case .screen(let chrome):
                host.screen(node, chrome: chrome, item: item)
            case .stack(let axis, let spacing, let alignment, let lazy):
                StackNodeView(
                    node: node, axis: axis, spacing: spacing, alignment: alignment, lazy: lazy, host: host, item: item)
            case .zstack(let alignment):
                ZStack(alignment: NodeAlignment.zstack(alignment)) {
                    RenderTreeChildren(node: node, host: host, item: item)
                }
                .holdsChildren(of: node, host: host, item: item)
            case .grid(let columns, let spacing):
                GridNodeView(node: node, columns: columns, spacing: spacing, host: host, item: item)
            case .flow:
                FlowNodeView(node: node, host: host, item: item)
            case .scroll(let axis):
                ScrollNodeView(node: node, axis: axis, host: host, item: item)
            case .form:
                Form {
                    RenderTreeChildren(node: node, host: host, item: item)
                }
                .holdsChildren(of: node, host: host, item: item)
                .formStyle(.grouped)
                .environment(\.nodeContainer, .list)
            case .section(let header):
                SectionNodeView(node: node, header: header, host: host, item: item)
            case .list(let style, let rows):
                switch Host.layout {
                case .patterns:
                    ListNodeView(style: style, rows: rows, host: host, showsSeparators: node.layout?.showsSeparators)
                case .document:
                    DocumentRowsView(rows: rows, host: host, showsSeparators: node.layout?.showsSeparators ?? false)
                }
            case .text(let text, let style, let lineLimit):
                Text(text)
                    .font(style.font)
                    .lineLimit(RenderKind.lineLimit(lineLimit))
                    .modifier(NodeAccessibility(info: node.accessibility))
            case .control(let control):
                ControlNodeView(control: control, accessibility: node.accessibility, host: host, item: item)
            case .metric(let label, let value, let icon):
                MetricCardView(label: label, value: value, icon: icon)
                    .modifier(NodeAccessibility(info: node.accessibility))
            case .labeledContent(let label, let value):
                if let link = node.link {
                    // A phone, e-mail or web site: the row opens it (the environment's openURL).
                    Link(destination: link) { LabeledContent(label, value: value) }
                        .modifier(NodeAccessibility(info: node.accessibility))
                } else {
                    LabeledContent(label, value: value)
                        .modifier(NodeAccessibility(info: node.accessibility))
                }
            case .row(let row):
                RowNodeView(row: row, accessibility: node.accessibility, host: host, item: item)
            case .image(let source, let isSymbol, let contentMode):
                NodeImageView(source: source, isSymbol: isSymbol, contentMode: contentMode, layout: node.layout)
                    .modifier(NodeAccessibility(info: node.accessibility))
                    .accessibilityHidden(node.accessibility?.label == nil)
            case .avatar(let source, let initials):
                AvatarView(source: source, initials: initials)
                    .modifier(NodeAccessibility(info: node.accessibility))
            case .chip(let text, let style):
                ChipView(text: text, style: style)
                    .modifier(NodeAccessibility(info: node.accessibility))
            case .rating(let value):
                RatingView(value: value, label: node.accessibility?.label, strings: host.strings)
            case .divider:
                Divider()
            case .spacer(let minLength):
                Spacer(minLength: minLength.map { CGFloat($0) })
            case .emptyState(let title, let message, let systemImage):
                EmptyStateView(node: node, title: title, message: message, systemImage: systemImage, host: host, item: item)
            case .skeleton(let lines):
                SkeletonView(lines: lines)
                    .modifier(NodeAccessibility(info: node.accessibility))
            case .tabView(let tabs):
                TabLinksView(tabs: tabs, host: host)
            case .navigationLink(let screen, let params):
                Button {
                    host.open(screen: screen, params: params)
                } label: {
                    buttonLabel
                }
                .buttonStyle(.plain)
                .modifier(NodeAccessibility(info: node.accessibility))
            case .button(let actionKey):
                Button {
                    host.fire(actionKey, item: item)
                } label: {
                    buttonLabel
                }
                .buttonStyle(.plain)
                .modifier(NodeAccessibility(info: node.accessibility))
            case .textField(let placeholder, let binding, let text):
                BoundTextField(
                    field: binding ?? node.id, placeholder: placeholder, text: text, isSearch: false, submitActionKey: nil,
                    host: host, item: item
                )
                .modifier(NodeAccessibility(info: node.accessibility))
            case .searchField(let placeholder, let binding, let text, let actionKey):
                BoundTextField(
                    field: binding ?? node.id, placeholder: placeholder, text: text, isSearch: true, submitActionKey: actionKey,
                    host: host, item: item
                )
                .modifier(NodeAccessibility(info: node.accessibility))
            case .navigationStack:
                switch Host.layout {
                case .patterns:
                    VStack(spacing: 0) {
                        RenderTreeChildren(node: node, host: host, item: item)
                    }
                    .holdsChildren(of: node, host: host, item: item)
                case .document:
                    // A document's navigation stack is the root of what a sheet presents.
                    NavigationStack {
                        VStack(alignment: .leading, spacing: 0) {
                            RenderTreeChildren(node: node, host: host, item: item)
                        }
                        .holdsChildren(of: node, host: host, item: item)
                    }
                }
            case .sheet:
                SheetNodeView(node: node, host: host, item: item)
            case .custom(let custom):
                CustomNodeView(
                    node: custom, registry: host.nativeComponents,
                    actions: NativeComponentActions(
                        perform: { name in
                            if let key = custom.actions[name] { host.fire(key, item: item) }
                        },
                        setValue: { value in
                            if let binding = custom.binding { host.setBoundValue(value, for: binding) }
                        })
                )
                .modifier(NodeAccessibility(info: node.accessibility))
            case .unknown(let name):
                Label(host.strings(.unsupportedElement, name), systemImage: "exclamationmark.triangle")
                    .font(.footnote)
                    .foregroundStyle(.secondary)
            }
        }

        /// Whether the node's style is drawn inside its label: buttons and links.
        private var stylesLabel: Bool {
            switch node.kind {
            case .button, .navigationLink: true
            default: false
            }
        }

        /// Whether a fixed height of the style may grow for text (`NodeFrame`).
        private var holdsStyledText: Bool {
            node.style?.height != nil && node.holdsText
        }

        /// The label of a button or link: its children with the node's style (padding, frame,
        /// background) inside, and its whole rectangle tappable. A plain button is hit only on
        /// its label's shape, so a style drawn outside the label would be dead to touch. An icon
        /// alone is tappable on at least 44 by 44 points around it (what it draws is unchanged).
        private var buttonLabel: some View {
            VStack {
                RenderTreeChildren(node: node, host: host, item: item)
            }
            .holdsChildren(of: node, host: host, item: item)
            .modifier(NodeStyleModifier(style: node.style, holdsText: holdsStyledText))
            .frame(minWidth: isIconOnly ? 44 : nil, minHeight: isIconOnly ? 44 : nil)
            .contentShape(Rectangle())
        }

        /// Whether the node's only child is an image (a symbol button such as Share).
        private var isIconOnly: Bool {
            guard node.children.count == 1, case .image = node.children[0].kind else { return false }
            return true
        }
    }

    /// The children of a node, in order, for the container that lays them out. That container
    /// applies `holdsChildren(of: node, …)`, so children with a transition animate as they come
    /// and go (a patch, a condition), their siblings keep their identity, and `sheet` children
    /// are drawn behind the container rather than among the children.
    struct RenderTreeChildren<Host: RenderTreeHost>: View {
        let node: RenderNode
        let host: Host
        var item: JSONValue?

        var body: some View {
            ForEach(node.children.filter { !$0.isSheet }) { child in
                RenderTreeView(node: child, host: host, item: item)
            }
        }
    }

    /// What a container of a node's children adds: their animation as they come and go
    /// (`ChildrenAnimation`), and the node's `sheet` children drawn behind it, so that a sheet's
    /// invisible anchor takes no place and no spacing among the children.
    struct ChildContainer<Host: RenderTreeHost>: ViewModifier {
        let node: RenderNode
        let host: Host
        let item: JSONValue?

        func body(content: Content) -> some View {
            content
                .animatesChildren(node.children)
                .background {
                    ForEach(node.children.filter(\.isSheet)) { sheet in
                        RenderTreeView(node: sheet, host: host, item: item)
                    }
                }
        }
    }

    extension View {
        /// Makes the view the container of `node`'s children (`ChildContainer`).
        func holdsChildren<Host: RenderTreeHost>(of node: RenderNode, host: Host, item: JSONValue?) -> some View {
            modifier(ChildContainer(node: node, host: host, item: item))
        }
    }

    extension RenderNode {
        /// Whether the node is a `sheet`, presented from its parent rather than laid out in it.
        var isSheet: Bool {
            if case .sheet = kind { return true }
            return false
        }
    }

    /// Alignment names of the tree (`leading`, `center`, `topTrailing`, …); `nil` is SwiftUI's default.
    enum NodeAlignment {
        /// A vertical stack's alignment: the horizontal part (none: centred).
        static func horizontal(_ alignment: RenderAlignment?) -> HorizontalAlignment {
            switch alignment {
            case .leading?, .topLeading?, .bottomLeading?: .leading
            case .trailing?, .topTrailing?, .bottomTrailing?: .trailing
            case .center?, .top?, .bottom?, .firstTextBaseline?, nil: .center
            }
        }

        /// A horizontal stack's alignment: the vertical part.
        static func vertical(_ alignment: RenderAlignment?) -> VerticalAlignment {
            switch alignment {
            case .top?, .topLeading?, .topTrailing?: .top
            case .bottom?, .bottomLeading?, .bottomTrailing?: .bottom
            case .firstTextBaseline?: .firstTextBaseline
            case .center?, .leading?, .trailing?, nil: .center
            }
        }

        /// A layered stack's alignment.
        static func zstack(_ alignment: RenderAlignment?) -> Alignment {
            switch alignment {
            case .topLeading?: .topLeading
            case .top?: .top
            case .topTrailing?: .topTrailing
            case .leading?: .leading
            case .trailing?: .trailing
            case .bottomLeading?: .bottomLeading
            case .bottom?: .bottom
            case .bottomTrailing?: .bottomTrailing
            case .center?, .firstTextBaseline?, nil: .center
            }
        }
    }

    /// `VStack`/`HStack`, lazy when the tree says so.
    struct StackNodeView<Host: RenderTreeHost>: View {
        let node: RenderNode
        let axis: DynamicUIRendering.RenderAxis
        let spacing: Double?
        let alignment: RenderAlignment?
        let lazy: Bool
        let host: Host
        let item: JSONValue?

        var body: some View {
            stack.holdsChildren(of: node, host: host, item: item)
        }

        @ViewBuilder
        private var stack: some View {
            let gap = spacing.map { CGFloat($0) }
            let children = RenderTreeChildren(node: node, host: host, item: item)
            switch (axis, lazy) {
            case (.vertical, false):
                VStack(alignment: NodeAlignment.horizontal(alignment), spacing: gap) { children }
            case (.vertical, true):
                LazyVStack(alignment: NodeAlignment.horizontal(alignment), spacing: gap) { children }
            case (.horizontal, false) where LayoutHints.needsWeightedRow(node.children):
                WeightedRow(spacing: gap ?? 8, hints: node.children.map(\.layout)) { children }
            case (.horizontal, false):
                HStack(alignment: NodeAlignment.vertical(alignment), spacing: gap) { children }
            case (.horizontal, true):
                LazyHStack(alignment: NodeAlignment.vertical(alignment), spacing: gap) { children }
            }
        }
    }

    /// `LazyVGrid` with the column count the tree decided for the size class.
    struct GridNodeView<Host: RenderTreeHost>: View {
        let node: RenderNode
        let columns: Int
        let spacing: Double?
        let host: Host
        let item: JSONValue?

        var body: some View {
            let gap = spacing.map { CGFloat($0) }
            LazyVGrid(
                columns: Array(
                    repeating: GridItem(.flexible(), spacing: gap, alignment: .topLeading), count: RenderKind.gridColumns(columns)
                ),
                alignment: .leading, spacing: gap
            ) {
                RenderTreeChildren(node: node, host: host, item: item)
            }
            .holdsChildren(of: node, host: host, item: item)
        }
    }

    /// `ScrollView`. In screens vertical content is padded and several horizontal children are
    /// pages (each one scrolls vertically); a document's scroll view holds its children as they
    /// are, without indicators.
    struct ScrollNodeView<Host: RenderTreeHost>: View {
        let node: RenderNode
        let axis: DynamicUIRendering.RenderAxis
        let host: Host
        let item: JSONValue?

        var body: some View {
            switch Host.layout {
            case .patterns:
                patterns
            case .document:
                ScrollView(axis == .horizontal ? .horizontal : .vertical, showsIndicators: false) {
                    RenderTreeChildren(node: node, host: host, item: item)
                }
                .holdsChildren(of: node, host: host, item: item)
            }
        }

        @ViewBuilder
        private var patterns: some View {
            switch axis {
            case .vertical:
                ScrollView {
                    if let content = node.children.first, node.children.count == 1,
                        case .stack(.vertical, let spacing, let alignment, true) = content.kind
                    {
                        // The tree says the content's rows can be many: built as they scroll
                        // into view, directly in the scroll view.
                        LazyVStack(alignment: NodeAlignment.horizontal(alignment), spacing: spacing.map { CGFloat($0) }) {
                            RenderTreeChildren(node: content, host: host, item: item)
                        }
                        .holdsChildren(of: content, host: host, item: item)
                        .frame(maxWidth: .infinity, alignment: .leading)
                        .padding()
                    } else {
                        VStack(alignment: .leading, spacing: 16) {
                            RenderTreeChildren(node: node, host: host, item: item)
                        }
                        .holdsChildren(of: node, host: host, item: item)
                        .frame(maxWidth: .infinity, alignment: .leading)
                        .padding()
                    }
                }
                .environment(\.nodeContainer, .scroll)
            case .horizontal:
                if node.children.count > 1 {
                    ScrollView(.horizontal) {
                        LazyHStack(alignment: .top, spacing: 0) {
                            ForEach(node.children.filter { !$0.isSheet }) { child in
                                // Each page also scrolls vertically: at the accessibility text
                                // sizes, or on a small phone, its text is not cut off.
                                ScrollView(.vertical) {
                                    RenderTreeView(node: child, host: host, item: item)
                                        .padding()
                                        .frame(maxWidth: .infinity, alignment: .top)
                                }
                                .scrollBounceBehavior(.basedOnSize)
                                .containerRelativeFrame([.horizontal, .vertical])
                            }
                        }
                        .holdsChildren(of: node, host: host, item: item)
                        .scrollTargetLayout()
                    }
                    .scrollTargetBehavior(.paging)
                    .environment(\.nodeContainer, .scroll)
                } else {
                    ScrollView(.horizontal) {
                        HStack(alignment: .top, spacing: 12) {
                            RenderTreeChildren(node: node, host: host, item: item)
                        }
                        .holdsChildren(of: node, host: host, item: item)
                    }
                    .environment(\.nodeContainer, .scroll)
                }
            }
        }
    }

    /// `Section` inside lists and forms; elsewhere a header over the section's content.
    struct SectionNodeView<Host: RenderTreeHost>: View {
        let node: RenderNode
        let header: String?
        let host: Host
        let item: JSONValue?
        @Environment(\.nodeContainer) private var container

        var body: some View {
            if container == .list {
                if let header {
                    Section {
                        RenderTreeChildren(node: node, host: host, item: item)
                    } header: {
                        Text(header)
                    }
                    .holdsChildren(of: node, host: host, item: item)
                } else {
                    Section {
                        RenderTreeChildren(node: node, host: host, item: item)
                    }
                    .holdsChildren(of: node, host: host, item: item)
                }
            } else {
                VStack(alignment: .leading, spacing: 8) {
                    if let header {
                        Text(header)
                            .font(.headline)
                            .accessibilityAddTraits(.isHeader)
                    }
                    RenderTreeChildren(node: node, host: host, item: item)
                }
                .holdsChildren(of: node, host: host, item: item)
                .frame(maxWidth: .infinity, alignment: .leading)
            }
        }
    }

    /// A row of a lazy list: its index and stable id (the row itself is built when drawn).
    struct RowReference: Identifiable {
        let index: Int
        let id: String

        /// Every row of `rows`, by its stable id (no row is built).
        static func all(of rows: LazyRows) -> [RowReference] {
            rows.ids.enumerated().map { RowReference(index: $0.offset, id: $0.element) }
        }
    }

    /// A list whose rows are built on demand: a `List` on its own, rows of the enclosing `List` or
    /// `Form`, or a lazy stack inside a scroll view; cards are a lazy stack of cards. The
    /// screen's pagination adds a last row that loads the next page.
    struct ListNodeView<Host: RenderTreeHost>: View {
        let style: DynamicUIRendering.RenderListStyle
        let rows: LazyRows
        let host: Host
        /// `false` hides the lines between rows (a list's `separator: false`).
        var showsSeparators: Bool?
        @Environment(\.nodeContainer) private var container
        @Environment(\.screenPagination) private var pagination

        var body: some View {
            switch container {
            case .list:
                // Rows of the enclosing `List` or `Form` must stay its rows.
                rowsContent
            case .scroll:
                // One view where the list stands (a grid cell, the content of a titled section),
                // so the list's own modifiers apply to it once and not to each row; its rows are
                // built as they scroll into view.
                LazyVStack(alignment: .leading, spacing: style == .cards ? 12 : 8) {
                    rowsContent
                }
                .frame(maxWidth: .infinity, alignment: .leading)
            case .plain:
                if style == .cards {
                    ScrollView {
                        LazyVStack(alignment: .leading, spacing: 12) {
                            rowsContent
                        }
                        .padding()
                    }
                    .environment(\.nodeContainer, .scroll)
                } else {
                    List {
                        rowsContent
                    }
                    .modifier(NodeListStyle(style: style))
                    .environment(\.nodeContainer, .list)
                }
            }
        }

        @ViewBuilder
        private var rowsContent: some View {
            ForEach(RowReference.all(of: rows)) { reference in
                let row = rows.row(at: reference.index)
                RenderTreeView(node: row, host: host, item: host.item(forRow: row.id, at: reference.index))
                    // The row draws the card inside its button, so the whole card is tappable.
                    .environment(\.listRowIsCard, style == .cards)
                    .listRowSeparator(showsSeparators == false ? .hidden : .automatic)
                    // The model decides: the last loaded row asks for the next page.
                    .task { await host.rowAppeared(at: reference.index) }
            }
            if let pagination, pagination.hasMore {
                PaginationRow(pagination: pagination, host: host)
            }
        }
    }

    /// The `List` style of a list node (inset grouped is iOS only; the Mac uses inset).
    struct NodeListStyle: ViewModifier {
        let style: DynamicUIRendering.RenderListStyle

        @ViewBuilder
        func body(content: Content) -> some View {
            switch style {
            case .plain, .cards:
                content.listStyle(.plain)
            case .insetGrouped:
                #if os(iOS)
                    content.listStyle(.insetGrouped)
                #else
                    content.listStyle(.inset)
                #endif
            }
        }
    }

    /// The last row of a paginated list: a spinner while the next page loads (the model asks for
    /// it when the last row shows), else a button for VoiceOver and keyboards. After a failed page
    /// it says so and waits for the retry button (paging does not go on by itself).
    struct PaginationRow<Host: RenderTreeHost>: View {
        let pagination: PaginationState
        let host: Host

        var body: some View {
            HStack {
                Spacer()
                if pagination.loadingMore {
                    ProgressView()
                        .accessibilityLabel(Text(host.strings(.loadingMore)))
                } else if pagination.failed {
                    VStack(spacing: 8) {
                        Text(host.strings(.loadMoreFailed))
                            .font(.footnote)
                            .foregroundStyle(.secondary)
                            .multilineTextAlignment(.center)
                        loadButton(host.strings(.retry))
                    }
                } else {
                    loadButton(host.strings(.loadMore))
                }
                Spacer()
            }
            .frame(minHeight: 44)
        }

        /// A button that loads the next page, tappable on at least 44 by 44 points (outside a
        /// `List` only its label is).
        private func loadButton(_ title: String) -> some View {
            Button {
                Task { await host.loadNextPage() }
            } label: {
                Text(title)
                    .modifier(MinimumTapTarget())
            }
        }
    }

    /// A document's list: its rows, built as they appear, stacked where the list is (inside the
    /// document's own stacks and scroll views), with a line between them when the list asks.
    struct DocumentRowsView<Host: RenderTreeHost>: View {
        let rows: LazyRows
        let host: Host
        /// A line between rows (a list's `separator: true`).
        let showsSeparators: Bool

        var body: some View {
            // Identified by the rows' ids, not their places: an insertion keeps the others' state.
            ForEach(RowReference.all(of: rows)) { reference in
                VStack(spacing: 0) {
                    if showsSeparators && reference.index > 0 {
                        Divider()
                    }
                    RenderTreeView(node: rows.row(at: reference.index), host: host)
                }
            }
        }
    }

    /// A wrapping row of the node's children (chips).
    struct FlowNodeView<Host: RenderTreeHost>: View {
        let node: RenderNode
        let host: Host
        let item: JSONValue?

        var body: some View {
            let layout = FlowLayout(spacing: 8)
            layout {
                RenderTreeChildren(node: node, host: host, item: item)
            }
            .holdsChildren(of: node, host: host, item: item)
        }
    }

    /// A wrapping row (chips): subviews left to right, starting a new line when one does not fit.
    struct FlowLayout: Layout {
        var spacing: CGFloat

        func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
            let lines = arrange(subviews, width: proposal.width ?? .infinity)
            let width = lines.map(\.width).max() ?? 0
            let height = lines.map(\.height).reduce(0, +) + spacing * CGFloat(max(0, lines.count - 1))
            return CGSize(width: width, height: height)
        }

        func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {
            var y = bounds.minY
            for line in arrange(subviews, width: bounds.width) {
                var x = bounds.minX
                for index in line.indices {
                    let size = size(of: subviews[index], width: bounds.width)
                    subviews[index].place(at: CGPoint(x: x, y: y), anchor: .topLeading, proposal: ProposedViewSize(size))
                    x += size.width + spacing
                }
                y += line.height + spacing
            }
        }

        private struct Line {
            var indices: [Int] = []
            var width: CGFloat = 0
            var height: CGFloat = 0
        }

        /// A subview's ideal size, or its size at the row's width when it is wider (a long chip
        /// at a large Dynamic Type size wraps instead of running off the edge).
        private func size(of subview: LayoutSubview, width maxWidth: CGFloat) -> CGSize {
            let ideal = subview.sizeThatFits(.unspecified)
            guard maxWidth.isFinite, ideal.width > maxWidth else { return ideal }
            return subview.sizeThatFits(ProposedViewSize(width: maxWidth, height: nil))
        }

        private func arrange(_ subviews: Subviews, width maxWidth: CGFloat) -> [Line] {
            var lines: [Line] = []
            var current = Line()
            for index in subviews.indices {
                let size = size(of: subviews[index], width: maxWidth)
                if !current.indices.isEmpty, current.width + spacing + size.width > maxWidth {
                    lines.append(current)
                    current = Line()
                }
                current.width += (current.indices.isEmpty ? 0 : spacing) + size.width
                current.height = max(current.height, size.height)
                current.indices.append(index)
            }
            if !current.indices.isEmpty { lines.append(current) }
            return lines
        }
    }
#endif
