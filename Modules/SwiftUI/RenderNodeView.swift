#if canImport(SwiftUI)
    import CoreGraphics
    import DynamicUI
    import DynamicUIActions
    import DynamicUIModels
    import DynamicUIRendering
    import Foundation
    import SwiftUI

    /// One node of the render tree and, through it, its subtree. Every `RenderKind` is mapped here
    /// (the switch has no `default`, so a new kind is a compile error).
    struct RenderNodeView: View {
        let node: RenderNode
        let model: DynamicScreenViewModel
        /// The list item the node was built for (rows and their controls fire actions with it).
        var item: JSONValue?

        var body: some View {
            content
                .modifier(SlotSizing(layout: node.layout))
                .ifPresent(node.style) { view, style in view.modifier(NodeStyleModifier(style: style)) }
                .ifPresent(node.logId) { view, logId in view.onAppear { model.recordImpression(logId) } }
        }

        @ViewBuilder
        private var content: some View {
            switch node.kind {
            case .screen(let chrome):
                ScreenNodeView(node: node, chrome: chrome, model: model, item: item)
            case .stack(let axis, let spacing, let alignment, let lazy):
                StackNodeView(
                    node: node, axis: axis, spacing: spacing, alignment: alignment, lazy: lazy, model: model, item: item)
            case .zstack(let alignment):
                ZStack(alignment: NodeAlignment.zstack(alignment)) {
                    NodeChildren(node: node, model: model, item: item)
                }
            case .grid(let columns, let spacing):
                GridNodeView(node: node, columns: columns, spacing: spacing, model: model, item: item)
            case .flow:
                FlowNodeView(node: node, model: model, item: item)
            case .scroll(let axis):
                ScrollNodeView(node: node, axis: axis, model: model, item: item)
            case .form:
                Form {
                    NodeChildren(node: node, model: model, item: item)
                }
                .formStyle(.grouped)
                .environment(\.nodeContainer, .list)
            case .section(let header):
                SectionNodeView(node: node, header: header, model: model, item: item)
            case .list(let style, let rows):
                ListNodeView(style: style, rows: rows, model: model, showsSeparators: node.layout?.showsSeparators)
            case .text(let text, let style, let lineLimit):
                Text(text)
                    .font(style.font)
                    .lineLimit(RenderKind.lineLimit(lineLimit))
                    .modifier(NodeAccessibility(info: node.accessibility))
            case .control(let control):
                ControlNodeView(control: control, accessibility: node.accessibility, model: model, item: item)
            case .metric(let label, let value, let icon):
                MetricCardView(label: label, value: value, icon: icon)
                    .modifier(NodeAccessibility(info: node.accessibility))
            case .labeledContent(let label, let value):
                LabeledContent(label, value: value)
                    .modifier(NodeAccessibility(info: node.accessibility))
            case .row(let row):
                RowNodeView(row: row, accessibility: node.accessibility, model: model, item: item)
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
                RatingView(value: value, label: node.accessibility?.label)
            case .divider:
                Divider()
            case .spacer(let minLength):
                Spacer(minLength: minLength.map { CGFloat($0) })
            case .emptyState(let title, let message, let systemImage):
                EmptyStateView(node: node, title: title, message: message, systemImage: systemImage, model: model, item: item)
            case .tabView(let tabs):
                TabLinksView(tabs: tabs, model: model)
            case .navigationLink(let screen, let params):
                Button {
                    model.open(screen: screen, params: params)
                } label: {
                    NodeChildren(node: node, model: model, item: item)
                }
                .buttonStyle(.plain)
                .modifier(NodeAccessibility(info: node.accessibility))
            case .button(let actionKey):
                Button {
                    model.fire(actionKey, item: item)
                } label: {
                    NodeChildren(node: node, model: model, item: item)
                }
                .buttonStyle(.plain)
                .modifier(NodeAccessibility(info: node.accessibility))
            case .textField(let placeholder, let binding, let text):
                BoundTextField(
                    field: binding ?? node.id, placeholder: placeholder, text: text, isSearch: false, submitActionKey: nil,
                    model: model, item: item
                )
                .modifier(NodeAccessibility(info: node.accessibility))
            case .searchField(let placeholder, let binding, let text, let actionKey):
                BoundTextField(
                    field: binding ?? node.id, placeholder: placeholder, text: text, isSearch: true, submitActionKey: actionKey,
                    model: model, item: item
                )
                .modifier(NodeAccessibility(info: node.accessibility))
            case .navigationStack:
                VStack(spacing: 0) {
                    NodeChildren(node: node, model: model, item: item)
                }
            case .sheet:
                SheetNodeView(node: node, model: model, item: item)
            case .custom(let custom):
                CustomNodeView(
                    node: custom, registry: model.nativeComponents,
                    actions: NativeComponentActions(
                        perform: { name in
                            if let key = custom.actions[name] { model.fire(key, item: item) }
                        },
                        setValue: { value in
                            if let field = custom.binding { model.formState.setValue(value.displayText, for: field) }
                        })
                )
                .modifier(NodeAccessibility(info: node.accessibility))
            case .unknown(let name):
                Label(model.strings(.unsupportedElement, name), systemImage: "exclamationmark.triangle")
                    .font(.footnote)
                    .foregroundStyle(.secondary)
            }
        }
    }

    /// The children of a node, in order.
    struct NodeChildren: View {
        let node: RenderNode
        let model: DynamicScreenViewModel
        let item: JSONValue?

        var body: some View {
            ForEach(node.children) { child in
                RenderNodeView(node: child, model: model, item: item)
            }
        }
    }

    /// Alignment names of the tree (`leading`, `center`, `topTrailing`, …); `nil` is SwiftUI's default.
    enum NodeAlignment {
        static func horizontal(_ name: String?) -> HorizontalAlignment {
            switch name {
            case "leading", "left", "start": .leading
            case "trailing", "right", "end": .trailing
            default: .center
            }
        }

        static func vertical(_ name: String?) -> VerticalAlignment {
            switch name {
            case "top": .top
            case "bottom": .bottom
            case "firstTextBaseline", "baseline": .firstTextBaseline
            default: .center
            }
        }

        static func zstack(_ name: String?) -> Alignment {
            switch name {
            case "topLeading": .topLeading
            case "top": .top
            case "topTrailing": .topTrailing
            case "leading": .leading
            case "trailing": .trailing
            case "bottomLeading": .bottomLeading
            case "bottom": .bottom
            case "bottomTrailing": .bottomTrailing
            default: .center
            }
        }
    }

    /// `VStack`/`HStack`, lazy when the tree says so.
    struct StackNodeView: View {
        let node: RenderNode
        let axis: DynamicUIRendering.Axis
        let spacing: Double?
        let alignment: String?
        let lazy: Bool
        let model: DynamicScreenViewModel
        let item: JSONValue?

        var body: some View {
            let gap = spacing.map { CGFloat($0) }
            switch (axis, lazy) {
            case (.vertical, false):
                VStack(alignment: NodeAlignment.horizontal(alignment), spacing: gap) {
                    NodeChildren(node: node, model: model, item: item)
                }
            case (.vertical, true):
                LazyVStack(alignment: NodeAlignment.horizontal(alignment), spacing: gap) {
                    NodeChildren(node: node, model: model, item: item)
                }
            case (.horizontal, false) where LayoutHints.needsWeightedRow(node.children):
                WeightedRow(spacing: gap ?? 8, hints: node.children.map(\.layout)) {
                    NodeChildren(node: node, model: model, item: item)
                }
            case (.horizontal, false):
                HStack(alignment: NodeAlignment.vertical(alignment), spacing: gap) {
                    NodeChildren(node: node, model: model, item: item)
                }
            case (.horizontal, true):
                LazyHStack(alignment: NodeAlignment.vertical(alignment), spacing: gap) {
                    NodeChildren(node: node, model: model, item: item)
                }
            }
        }
    }

    /// `LazyVGrid` with the column count the tree decided for the size class.
    struct GridNodeView: View {
        let node: RenderNode
        let columns: Int
        let spacing: Double?
        let model: DynamicScreenViewModel
        let item: JSONValue?

        var body: some View {
            let gap = spacing.map { CGFloat($0) }
            LazyVGrid(
                columns: Array(
                    repeating: GridItem(.flexible(), spacing: gap, alignment: .topLeading), count: RenderKind.gridColumns(columns)
                ),
                alignment: .leading, spacing: gap
            ) {
                NodeChildren(node: node, model: model, item: item)
            }
        }
    }

    /// `ScrollView`: vertical content is padded; several horizontal children are pages.
    struct ScrollNodeView: View {
        let node: RenderNode
        let axis: DynamicUIRendering.Axis
        let model: DynamicScreenViewModel
        let item: JSONValue?

        var body: some View {
            switch axis {
            case .vertical:
                ScrollView {
                    VStack(alignment: .leading, spacing: 16) {
                        NodeChildren(node: node, model: model, item: item)
                    }
                    .frame(maxWidth: .infinity, alignment: .leading)
                    .padding()
                }
                .environment(\.nodeContainer, .scroll)
            case .horizontal:
                if node.children.count > 1 {
                    ScrollView(.horizontal) {
                        LazyHStack(alignment: .top, spacing: 0) {
                            ForEach(node.children) { child in
                                RenderNodeView(node: child, model: model, item: item)
                                    .padding()
                                    .containerRelativeFrame(.horizontal)
                            }
                        }
                        .scrollTargetLayout()
                    }
                    .scrollTargetBehavior(.paging)
                    .environment(\.nodeContainer, .scroll)
                } else {
                    ScrollView(.horizontal) {
                        HStack(alignment: .top, spacing: 12) {
                            NodeChildren(node: node, model: model, item: item)
                        }
                    }
                    .environment(\.nodeContainer, .scroll)
                }
            }
        }
    }

    /// `Section` inside lists and forms; elsewhere a header over the section's content.
    struct SectionNodeView: View {
        let node: RenderNode
        let header: String?
        let model: DynamicScreenViewModel
        let item: JSONValue?
        @Environment(\.nodeContainer) private var container

        var body: some View {
            if container == .list {
                if let header {
                    Section {
                        NodeChildren(node: node, model: model, item: item)
                    } header: {
                        Text(header)
                    }
                } else {
                    Section {
                        NodeChildren(node: node, model: model, item: item)
                    }
                }
            } else {
                VStack(alignment: .leading, spacing: 8) {
                    if let header {
                        Text(header)
                            .font(.headline)
                            .accessibilityAddTraits(.isHeader)
                    }
                    NodeChildren(node: node, model: model, item: item)
                }
                .frame(maxWidth: .infinity, alignment: .leading)
            }
        }
    }

    /// A row of a lazy list: its index and stable id (the row itself is built when drawn).
    struct RowReference: Identifiable {
        let index: Int
        let id: String
    }

    /// A list whose rows are built on demand: a `List` on its own, rows of the enclosing `List` or
    /// `Form`, or rows of the enclosing stack inside a scroll view; cards are a lazy stack of cards.
    /// The screen's pagination adds a last row that loads the next page.
    struct ListNodeView: View {
        let style: DynamicUIRendering.ListStyle
        let rows: LazyRows
        let model: DynamicScreenViewModel
        /// `false` hides the lines between rows (a list's `separator: false`).
        var showsSeparators: Bool?
        @Environment(\.nodeContainer) private var container
        @Environment(\.screenPagination) private var pagination

        var body: some View {
            switch container {
            case .list, .scroll:
                rowsContent
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

        private var references: [RowReference] {
            (0..<rows.count).map { RowReference(index: $0, id: rows.id(at: $0)) }
        }

        @ViewBuilder
        private var rowsContent: some View {
            ForEach(references) { reference in
                let row = rows.row(at: reference.index)
                RenderNodeView(node: row, model: model, item: model.item(forRow: row.id, at: reference.index))
                    .modifier(CardRow(isCard: style == .cards))
                    .listRowSeparator(showsSeparators == false ? .hidden : .automatic)
            }
            if let pagination, pagination.hasMore {
                PaginationRow(loadingMore: pagination.loadingMore, model: model)
            }
        }
    }

    /// The `List` style of a list node (inset grouped is iOS only; the Mac uses inset).
    struct NodeListStyle: ViewModifier {
        let style: DynamicUIRendering.ListStyle

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

    /// A card around a row of a card list.
    struct CardRow: ViewModifier {
        let isCard: Bool

        @ViewBuilder
        func body(content: Content) -> some View {
            if isCard {
                content
                    .padding()
                    .frame(maxWidth: .infinity, alignment: .leading)
                    .background(Color.secondary.opacity(0.12), in: RoundedRectangle(cornerRadius: 12))
            } else {
                content
            }
        }
    }

    /// The last row of a paginated list: it asks for the next page when it appears, and shows a
    /// spinner while the page loads (or a button, for VoiceOver and when it stayed visible).
    struct PaginationRow: View {
        let loadingMore: Bool
        let model: DynamicScreenViewModel

        var body: some View {
            HStack {
                Spacer()
                if loadingMore {
                    ProgressView()
                        .accessibilityLabel(Text(model.strings(.loadingMore)))
                } else {
                    Button(model.strings(.loadMore)) {
                        Task { await model.loadNextPage() }
                    }
                }
                Spacer()
            }
            .onAppear {
                guard !loadingMore else { return }
                Task { await model.loadNextPage() }
            }
        }
    }

    /// A wrapping row of the node's children (chips).
    struct FlowNodeView: View {
        let node: RenderNode
        let model: DynamicScreenViewModel
        let item: JSONValue?

        var body: some View {
            let layout = FlowLayout(spacing: 8)
            layout {
                NodeChildren(node: node, model: model, item: item)
            }
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
                    let size = subviews[index].sizeThatFits(.unspecified)
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

        private func arrange(_ subviews: Subviews, width maxWidth: CGFloat) -> [Line] {
            var lines: [Line] = []
            var current = Line()
            for index in subviews.indices {
                let size = subviews[index].sizeThatFits(.unspecified)
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
