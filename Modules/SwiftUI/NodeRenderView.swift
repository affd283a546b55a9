#if canImport(SwiftUI)
    import CoreGraphics
    import DynamicUI
    import DynamicUIModels
    import DynamicUIRendering
    import Foundation
    import SwiftUI

    /// One node of a node-dialect document's render tree, drawn for a `NodeScreenModel`. Every
    /// `RenderKind` is mapped (no `default`); kinds only the screen dialect makes are drawn with
    /// the same leaf views as `RenderNodeView`.
    struct NodeRenderView: View {
        let node: RenderNode
        let scope: NodeScope

        var body: some View {
            content
                .ifPresent(node.style) { view, style in view.modifier(NodeStyleModifier(style: style)) }
                .ifPresent(node.logId) { view, logId in view.onAppear { scope.model.recordImpression(logId) } }
        }

        @ViewBuilder
        private var content: some View {
            switch node.kind {
            case .screen(let chrome):
                NodeScreenView(node: node, chrome: chrome, scope: scope)
            case .stack(let axis, let spacing, let alignment, let lazy):
                NodeStackLayout(node: node, axis: axis, spacing: spacing, alignment: alignment, lazy: lazy, scope: scope)
            case .zstack(let alignment):
                ZStack(alignment: NodeAlignment.zstack(alignment)) { NodeRenderChildren(node: node, scope: scope) }
            case .grid(let columns, let spacing):
                LazyVGrid(
                    columns: Array(
                        repeating: GridItem(.flexible(), spacing: spacing.map { CGFloat($0) }, alignment: .topLeading),
                        count: RenderKind.gridColumns(columns)),
                    alignment: .leading, spacing: spacing.map { CGFloat($0) }
                ) {
                    NodeRenderChildren(node: node, scope: scope)
                }
            case .scroll(let axis):
                ScrollView(axis == .horizontal ? .horizontal : .vertical, showsIndicators: false) {
                    NodeRenderChildren(node: node, scope: scope)
                }
            case .list(_, let rows):
                NodeRowsView(rows: rows, scope: scope, showsSeparators: node.layout?.showsSeparators ?? false)
            case .text(let text, let style, let lineLimit):
                Text(text)
                    .font(style.font)
                    .lineLimit(RenderKind.lineLimit(lineLimit))
                    .modifier(NodeAccessibility(info: node.accessibility))
            case .image(let source, let isSymbol, let contentMode):
                NodeImageView(source: source, isSymbol: isSymbol, contentMode: contentMode, layout: node.layout)
                    .modifier(NodeAccessibility(info: node.accessibility))
                    .accessibilityHidden(node.accessibility?.label == nil)
            case .spacer(let minLength):
                Spacer(minLength: minLength.map { CGFloat($0) })
            case .divider:
                Divider()
            case .button(let key):
                Button {
                    scope.perform(key)
                } label: {
                    NodeRenderChildren(node: node, scope: scope)
                }
                .buttonStyle(.plain)
                .modifier(NodeAccessibility(info: node.accessibility))
            case .navigationLink(let screen, let params):
                Button {
                    scope.model.open(screen: screen, params: params)
                } label: {
                    NodeRenderChildren(node: node, scope: scope)
                }
                .buttonStyle(.plain)
                .modifier(NodeAccessibility(info: node.accessibility))
            case .textField(let placeholder, let binding, _):
                NodeBoundField(
                    binding: binding ?? node.id, placeholder: placeholder, submitKey: nil, isSearch: false, scope: scope)
            case .searchField(let placeholder, let binding, _, let actionKey):
                NodeBoundField(
                    binding: binding ?? node.id, placeholder: placeholder, submitKey: actionKey, isSearch: true, scope: scope)
            case .tabView(let tabs):
                HStack {
                    ForEach(tabs, id: \.screen) { tab in
                        Button(tab.title) { scope.app.select(tab.screen) }
                    }
                }
            case .navigationStack:
                NavigationStack {
                    VStack(alignment: .leading, spacing: 0) { NodeRenderChildren(node: node, scope: scope) }
                }
            case .sheet:
                NodeSheetView(node: node, scope: scope)
            case .custom(let custom):
                CustomNodeView(
                    node: custom, registry: scope.app.nativeComponents,
                    actions: NativeComponentActions(
                        perform: { name in
                            if let key = custom.actions[name] { scope.perform(key) }
                        },
                        setValue: { value in
                            if let binding = custom.binding { scope.model.setValue(value, for: binding) }
                        })
                )
                .modifier(NodeAccessibility(info: node.accessibility))
            case .unknown(let name):
                Label(scope.app.strings(.unsupportedElement, name), systemImage: "exclamationmark.triangle")
                    .font(.footnote)
                    .foregroundStyle(.secondary)
            case .form, .section, .flow, .control, .emptyState:
                VStack(alignment: .leading, spacing: 8) { NodeRenderChildren(node: node, scope: scope) }
            case .metric(let label, let value, let icon):
                MetricCardView(label: label, value: value, icon: icon)
            case .labeledContent(let label, let value):
                LabeledContent(label, value: value)
            case .row(let row):
                RowContent(row: row)
            case .avatar(let source, let initials):
                AvatarView(source: source, initials: initials)
            case .chip(let text, let style):
                ChipView(text: text, style: style)
            case .rating(let value):
                RatingView(value: value, label: node.accessibility?.label)
            }
        }
    }

    /// The children of a node, in order.
    struct NodeRenderChildren: View {
        let node: RenderNode
        let scope: NodeScope

        var body: some View {
            ForEach(node.children) { child in
                NodeRenderView(node: child, scope: scope)
            }
        }
    }

    /// A document's screen: its title in the navigation bar, its toolbar node in the toolbar.
    struct NodeScreenView: View {
        let node: RenderNode
        let chrome: ScreenChrome
        let scope: NodeScope

        var body: some View {
            let toolbar = node.children.first { $0.id.hasSuffix(".toolbar") }
            VStack(alignment: .leading, spacing: 0) {
                ForEach(node.children.filter { !$0.id.hasSuffix(".toolbar") }) { child in
                    NodeRenderView(node: child, scope: scope)
                }
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .top)
            .navigationTitle(chrome.title)
            .modifier(TitleDisplayMode(large: chrome.largeTitle))
            .toolbar {
                if let toolbar {
                    SwiftUI.ToolbarItem(placement: .primaryAction) {
                        NodeRenderView(node: toolbar, scope: scope)
                    }
                }
            }
        }
    }

    /// `VStack`/`HStack`, lazy when the tree says so.
    struct NodeStackLayout: View {
        let node: RenderNode
        let axis: DynamicUIRendering.Axis
        let spacing: Double?
        let alignment: String?
        let lazy: Bool
        let scope: NodeScope

        var body: some View {
            let gap = spacing.map { CGFloat($0) }
            switch (axis, lazy) {
            case (.vertical, false):
                VStack(alignment: NodeAlignment.horizontal(alignment), spacing: gap) {
                    NodeRenderChildren(node: node, scope: scope)
                }
            case (.vertical, true):
                LazyVStack(alignment: NodeAlignment.horizontal(alignment), spacing: gap) {
                    NodeRenderChildren(node: node, scope: scope)
                }
            case (.horizontal, false):
                HStack(alignment: NodeAlignment.vertical(alignment), spacing: gap) {
                    NodeRenderChildren(node: node, scope: scope)
                }
            case (.horizontal, true):
                LazyHStack(alignment: NodeAlignment.vertical(alignment), spacing: gap) {
                    NodeRenderChildren(node: node, scope: scope)
                }
            }
        }
    }

    /// A node list's rows, built as they appear (inside the document's own stacks and scroll views).
    struct NodeRowsView: View {
        let rows: LazyRows
        let scope: NodeScope
        /// A line between rows (a list's `separator: true`).
        let showsSeparators: Bool

        var body: some View {
            ForEach(0..<rows.count, id: \.self) { index in
                VStack(spacing: 0) {
                    if showsSeparators && index > 0 {
                        Divider()
                    }
                    NodeRenderView(node: rows.row(at: index), scope: scope)
                }
                .id(rows.id(at: index))
            }
        }
    }

    /// A `text_field` or `search_bar` bound to the document's state; return submits the search.
    struct NodeBoundField: View {
        let binding: String
        let placeholder: String?
        let submitKey: String?
        let isSearch: Bool
        let scope: NodeScope

        var body: some View {
            HStack(spacing: 6) {
                if isSearch {
                    Image(systemName: "magnifyingglass")
                        .foregroundStyle(.secondary)
                        .accessibilityHidden(true)
                }
                TextField(placeholder ?? "", text: text)
                    .textFieldStyle(.roundedBorder)
                    .submitLabel(isSearch ? .search : .done)
                    .onSubmit {
                        if let submitKey { scope.perform(submitKey) }
                    }
            }
        }

        private var text: Binding<String> {
            let key = NodeScreenModel.stateKey(binding)
            return Binding(
                get: { scope.model.state[key]?.displayText ?? "" },
                set: { scope.model.setValue(.string($0), for: binding) })
        }
    }

    /// A `sheet` node: shown while the node is in the tree (its condition holds); the document's
    /// own buttons close it.
    struct NodeSheetView: View {
        let node: RenderNode
        let scope: NodeScope

        var body: some View {
            Color.clear
                .frame(width: 0, height: 0)
                .accessibilityHidden(true)
                .sheet(isPresented: .constant(true)) {
                    VStack(alignment: .leading, spacing: 0) { NodeRenderChildren(node: node, scope: scope) }
                        .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .top)
                        .interactiveDismissDisabled()
                }
        }
    }
#endif
