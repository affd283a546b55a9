#if canImport(SwiftUI)
    import DynamicUI
    import DynamicUIActions
    import DynamicUIModels
    import DynamicUIRendering
    import Foundation
    import SwiftUI

    /// A KPI card: icon, value and label.
    struct MetricCardView: View {
        let label: String
        let value: String
        let icon: String?

        var body: some View {
            VStack(alignment: .leading, spacing: 8) {
                if let icon {
                    Image(systemName: icon)
                        .font(.title2)
                        .foregroundStyle(.tint)
                }
                Text(value)
                    .font(.title)
                    .fontWeight(.bold)
                    .lineLimit(1)
                    .minimumScaleFactor(0.6)
                Text(label)
                    .font(.subheadline)
                    .foregroundStyle(.secondary)
            }
            .frame(maxWidth: .infinity, alignment: .leading)
            .padding()
            .background(Color.secondary.opacity(0.12), in: RoundedRectangle(cornerRadius: 12))
            .accessibilityElement(children: .combine)
        }
    }

    /// A list row: a button when it fires an action, with its swipe actions and context menu.
    /// In a card list the row is a card, whose padding is inside the button: the whole card is
    /// tappable, not only its text.
    struct RowNodeView<Host: RenderTreeHost>: View {
        let row: RowNode
        let accessibility: AccessibilityInfo?
        let host: Host
        let item: JSONValue?
        @Environment(\.listRowIsCard) private var isCard

        var body: some View {
            HStack(spacing: 8) {
                rowBody
                if offersPopover {
                    RowActionsPopoverButton(title: row.title, actions: row.menuActions, host: host, item: item)
                        .padding(.trailing, isCard ? 8 : 0)
                }
            }
            .frame(maxWidth: isCard ? .infinity : nil, alignment: .leading)
            .background(isCard ? Color.secondary.opacity(0.12) : Color.clear, in: RoundedRectangle(cornerRadius: 12))
            .modifier(NodeAccessibility(info: accessibility))
            .modifier(RowActions(placement: .swipe, actions: host.rowActions(row.swipeActionIds), host: host, item: item))
            .modifier(RowActions(placement: .contextMenu, actions: contextActions, host: host, item: item))
        }

        #if os(iOS)
            @Environment(\.horizontalSizeClass) private var horizontalSizeClass
        #endif

        /// Whether the row's actions are also offered in a popover (quick actions on
        /// iPad; `PlatformCapabilities.prefersPopovers`).
        private var offersPopover: Bool {
            #if os(iOS)
                let sizeClass: SizeClass = horizontalSizeClass == .regular ? .regular : .compact
                return !row.menuActions.isEmpty && PlatformCapabilities(platform: .ipad, sizeClass: sizeClass).prefersPopovers
            #else
                return false
            #endif
        }

        /// Long-press actions; where nothing swipes (the Mac), the swipe actions join them.
        private var contextActions: [RowAction] {
            #if os(macOS)
                return row.menuActions
            #else
                return host.rowActions(row.contextActionIds)
            #endif
        }

        @ViewBuilder
        private var rowBody: some View {
            if let actionId = row.actionId {
                Button {
                    host.fire(actionId, item: item)
                } label: {
                    RowContent(row: row)
                        .padding(isCard ? 16 : 0)
                        .contentShape(Rectangle())
                }
                .buttonStyle(.plain)
            } else {
                RowContent(row: row)
                    .padding(isCard ? 16 : 0)
                    .accessibilityElement(children: .combine)
            }
        }
    }

    /// The content of a row: leading symbol, title and subtitles, status capsule, disclosure
    /// chevron (`chevron.forward`, which points left in right-to-left languages).
    struct RowContent: View {
        let row: RowNode

        var body: some View {
            HStack(spacing: 12) {
                if let avatar = row.avatar {
                    AvatarView(source: avatar.source, initials: avatar.initials)
                        .accessibilityHidden(true)
                } else if let icon = row.icon {
                    Image(systemName: icon)
                        .font(.title3)
                        .foregroundStyle(.tint)
                        .frame(minWidth: 28)
                        .accessibilityHidden(true)
                }
                VStack(alignment: .leading, spacing: 2) {
                    Text(row.title)
                        .font(.headline)
                        .foregroundStyle(.primary)
                    ForEach(Keyed.list(row.subtitles) { $0 }) { subtitle in
                        Text(subtitle.element)
                            .font(.subheadline)
                            .foregroundStyle(.secondary)
                    }
                }
                Spacer(minLength: 8)
                if let badge = row.badge {
                    ChipView(text: badge, style: .neutral)
                }
                if row.showsChevron {
                    Image(systemName: "chevron.forward")
                        .font(.footnote.weight(.semibold))
                        .foregroundStyle(.tertiary)
                        .accessibilityHidden(true)
                }
            }
            .contentShape(Rectangle())
        }
    }

    /// A "more" button whose popover lists a row's actions (iPad in regular width). The chosen
    /// action runs once the popover is gone: UIKit presents nothing while a presentation is still
    /// closing, so a confirmation the action asks for would never show.
    struct RowActionsPopoverButton<Host: RenderTreeHost>: View {
        /// The row's title, which VoiceOver reads with the button ("More actions: <title>").
        let title: String
        let actions: [RowAction]
        let host: Host
        let item: JSONValue?
        @State private var isPresented = false
        /// The action tapped in the popover, fired when the popover's content has disappeared.
        @State private var chosen: RowAction?

        var body: some View {
            Button {
                isPresented = true
            } label: {
                Image(systemName: "ellipsis.circle")
                    .modifier(MinimumTapTarget())
            }
            .buttonStyle(.borderless)
            .accessibilityLabel(Text(host.strings(.moreActionsFor, title)))
            .popover(isPresented: $isPresented) {
                VStack(alignment: .leading, spacing: 12) {
                    ForEach(actions) { action in
                        Button(role: action.isDestructive ? .destructive : nil) {
                            chosen = action
                            isPresented = false
                        } label: {
                            RowActionLabel(action: action)
                        }
                    }
                }
                .padding()
                .onDisappear {
                    guard let action = chosen else { return }
                    chosen = nil
                    host.fire(action.id, item: item)
                }
            }
        }
    }

    /// A row's actions: SWIPE ones as `.swipeActions` (only lists show them), LONG_PRESS ones as
    /// `.contextMenu`. Destructive swipe actions are red but not `role: .destructive`, which would
    /// remove the row before the action (or its confirmation) has run. Applied with no actions
    /// too (an empty set offers nothing), so a record whose grants change keeps its row.
    struct RowActions<Host: RenderTreeHost>: ViewModifier {
        /// Where the actions are offered.
        enum Placement { case swipe, contextMenu }

        let placement: Placement
        let actions: [RowAction]
        let host: Host
        let item: JSONValue?

        @ViewBuilder
        func body(content: Content) -> some View {
            switch placement {
            case .swipe:
                content.swipeActions(edge: .trailing, allowsFullSwipe: false) {
                    ForEach(actions) { action in
                        button(action, role: nil).tint(action.isDestructive ? Color.red : nil)
                    }
                }
            case .contextMenu:
                content.contextMenu {
                    ForEach(actions) { action in button(action, role: action.isDestructive ? .destructive : nil) }
                }
            }
        }

        private func button(_ action: RowAction, role: SwiftUI.ButtonRole?) -> some View {
            Button(role: role) {
                host.fire(action.id, item: item)
            } label: {
                RowActionLabel(action: action)
            }
        }
    }

    /// The title of a row action, with its symbol when it has one.
    struct RowActionLabel: View {
        let action: RowAction

        var body: some View {
            if let symbol = action.systemImage {
                Label(action.title, systemImage: symbol)
            } else {
                Text(action.title)
            }
        }
    }

    /// An SF Symbol, or a remote image (fit or fill) with a spinner while it loads.
    struct NodeImageView: View {
        let source: String
        let isSymbol: Bool
        let contentMode: RenderContentMode?
        /// `resizable: false` keeps the natural size; `aspectRatio` fixes the frame's ratio.
        var layout: LayoutHints?

        var body: some View {
            if isSymbol {
                Image(systemName: source)
                    .font(.title2)
                    .foregroundStyle(.tint)
            } else if !source.isEmpty, let url = URL(string: source) {
                AsyncImage(url: url) { phase in
                    switch phase {
                    case .success(let image):
                        // Both ways an `Image`: a fixed-size image ignores the proposed ratio.
                        let resizable = layout?.resizable != false
                        (resizable ? image.resizable() : image)
                            .aspectRatio(
                                resizable ? layout?.aspectRatio.map { CGFloat($0) } : nil,
                                contentMode: contentMode == .fill ? .fill : .fit)
                    case .failure:
                        placeholder
                    case .empty:
                        ProgressView()
                    @unknown default:
                        ProgressView()
                    }
                }
            } else {
                placeholder
            }
        }

        private var placeholder: some View {
            Image(systemName: "photo")
                .font(.largeTitle)
                .foregroundStyle(.secondary)
        }
    }

    /// A circular avatar: the image when it loads, the initials otherwise.
    struct AvatarView: View {
        let source: String?
        let initials: String
        @ScaledMetric(relativeTo: .title) private var size: CGFloat = 56

        var body: some View {
            Group {
                if let source, let url = URL(string: source) {
                    AsyncImage(url: url) { phase in
                        if let image = phase.image {
                            image
                                .resizable()
                                .scaledToFill()
                        } else {
                            initialsView
                        }
                    }
                } else {
                    initialsView
                }
            }
            .frame(width: size, height: size)
            .clipShape(Circle())
        }

        private var initialsView: some View {
            Circle()
                .fill(Color.accentColor.opacity(0.2))
                .overlay {
                    Text(initials)
                        .font(.title3)
                        .fontWeight(.semibold)
                        .foregroundStyle(.tint)
                }
        }
    }

    /// A status capsule, tinted by its style. Its text is the primary label colour: a tint's own
    /// colour over a wash of itself stays below 4.5:1.
    struct ChipView: View {
        let text: String
        let style: RenderChipStyle

        var body: some View {
            Text(text)
                .font(.caption)
                .fontWeight(.medium)
                .padding(.horizontal, 8)
                .padding(.vertical, 4)
                .foregroundStyle(.primary)
                .background(color.opacity(0.15), in: Capsule())
                .overlay(Capsule().strokeBorder(color.opacity(0.6), lineWidth: 1))
        }

        private var color: Color {
            switch style {
            case .success: Color.green
            case .warning: Color.orange
            case .danger: Color.red
            case .info: Color.blue
            case .neutral: Color.secondary
            }
        }
    }

    /// Stars out of five (halves included), read by VoiceOver as one value.
    struct RatingView: View {
        let value: Double
        let label: String?
        /// The words of "n out of 5" when the tree gives no label.
        let strings: DynamicUIStrings

        var body: some View {
            HStack(spacing: 2) {
                ForEach(0..<5, id: \.self) { index in
                    Image(systemName: symbol(at: index))
                }
            }
            .foregroundStyle(Color.yellow)
            .accessibilityElement(children: .ignore)
            .accessibilityLabel(Text(label ?? strings(.ratingOutOfFive, "\(RenderKind.ratingStars(value))")))
        }

        private func symbol(at index: Int) -> String {
            let filled = value - Double(index)
            if filled >= 0.75 { return "star.fill" }
            if filled >= 0.25 { return "star.leadinghalf.filled" }
            return "star"
        }
    }

    /// `ContentUnavailableView`; the node's children (its buttons) are the actions.
    struct EmptyStateView<Host: RenderTreeHost>: View {
        let node: RenderNode
        let title: String
        let message: String?
        let systemImage: String?
        let host: Host
        let item: JSONValue?

        var body: some View {
            ContentUnavailableView {
                Label(title, systemImage: systemImage ?? "tray")
            } description: {
                if let message {
                    Text(message)
                }
            } actions: {
                RenderTreeChildren(node: node, host: host, item: item)
            }
            .holdsChildren(of: node, host: host, item: item)
        }
    }

    /// A deferred section on its way: grey bars, redacted, read as one "loading" element.
    struct SkeletonView: View {
        let lines: Int

        var body: some View {
            VStack(alignment: .leading, spacing: 8) {
                ForEach(0..<max(1, min(lines, 12)), id: \.self) { index in
                    RoundedRectangle(cornerRadius: 4)
                        .fill(Color.secondary.opacity(0.2))
                        .frame(height: 14)
                        .frame(maxWidth: index.isMultiple(of: 3) ? .infinity : 240, alignment: .leading)
                }
            }
            .redacted(reason: .placeholder)
            .accessibilityElement(children: .ignore)
        }
    }

    /// A `tab_view` inside a document or screen: one button per tab that shows the tab's screen
    /// (the app's own tabs are `NodeAppView`'s and `DynamicNavigationView`'s).
    struct TabLinksView<Host: RenderTreeHost>: View {
        let tabs: [TabItem]
        let host: Host

        var body: some View {
            ScrollView(.horizontal, showsIndicators: false) {
                HStack(spacing: 8) {
                    ForEach(Keyed.list(tabs, key: \.screen)) { entry in
                        let tab = entry.element
                        Button {
                            host.select(tab: tab.screen)
                        } label: {
                            if let icon = tab.icon {
                                Label(tab.title, systemImage: icon)
                            } else {
                                Text(tab.title)
                            }
                        }
                        .buttonStyle(.bordered)
                        .accessibilityAddTraits(.isLink)
                    }
                }
                .padding(.horizontal)
            }
        }
    }

    /// A `text_field` or `search_bar`, bound to its form field or state key (the value the tree
    /// resolved until one is typed); return fires the submit action when there is one.
    struct BoundTextField<Host: RenderTreeHost>: View {
        let field: String
        let placeholder: String?
        let text: String
        let isSearch: Bool
        let submitActionKey: String?
        let host: Host
        let item: JSONValue?

        private var binding: Binding<String> {
            Binding(
                get: { @MainActor in host.boundValue(for: field) ?? text },
                set: { @MainActor in host.setBoundValue(.string($0), for: field) })
        }

        var body: some View {
            HStack(spacing: 8) {
                if isSearch {
                    Image(systemName: "magnifyingglass")
                        .foregroundStyle(.secondary)
                        .accessibilityHidden(true)
                }
                TextField(placeholder ?? "", text: binding)
                    .submitLabel(isSearch ? .search : .done)
                    .modifier(InputTraits(kind: isSearch ? .search : .text))
                    .onSubmit {
                        if let submitActionKey { host.fire(submitActionKey, item: item) }
                    }
            }
            .textFieldStyle(.roundedBorder)
        }
    }

    /// A `sheet` node: presented while the node is in the tree. In a screen it has a close
    /// button; a document's sheet shows while its condition holds, and closes by the document's
    /// own buttons (a `dismiss` inside it) or a swipe: the model then leaves it out of the tree
    /// until its condition lets it go.
    struct SheetNodeView<Host: RenderTreeHost>: View {
        let node: RenderNode
        let host: Host
        let item: JSONValue?
        @State private var isPresented = true

        var body: some View {
            switch Host.layout {
            case .patterns:
                anchor
                    .sheet(isPresented: $isPresented) {
                        NavigationStack {
                            VStack(spacing: 0) {
                                RenderTreeChildren(node: node, host: host, item: item)
                            }
                            .holdsChildren(of: node, host: host, item: item)
                            .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .top)
                            .toolbar {
                                SwiftUI.ToolbarItem(placement: .cancellationAction) {
                                    Button(host.strings(.close)) { isPresented = false }
                                }
                            }
                        }
                        .environment(\.nodeContainer, .plain)
                    }
            case .document:
                anchor
                    .sheet(isPresented: documentPresentation) {
                        VStack(alignment: .leading, spacing: 0) {
                            RenderTreeChildren(node: node, host: host, item: item)
                        }
                        .holdsChildren(of: node, host: host, item: item)
                        .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .top)
                    }
            }
        }

        /// Shown while the node is in the tree; a swipe tells the model, which closes it.
        private var documentPresentation: Binding<Bool> {
            Binding(
                get: { @MainActor in true },
                set: { @MainActor [host, id = node.id] isPresented in
                    if !isPresented { host.sheetNodeDismissed(id) }
                })
        }

        /// The invisible view the sheet is presented from. Its parent draws it behind itself
        /// (`ChildContainer`), so it takes no place and no spacing in the parent's stack.
        private var anchor: some View {
            Color.clear
                .frame(width: 0, height: 0)
                .accessibilityHidden(true)
        }
    }
#endif
