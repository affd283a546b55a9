#if canImport(SwiftUI)
    import DynamicUI
    import DynamicUIRendering
    import SwiftUI
    import Accessibility

    /// A document's banner over the bottom of its content, in either dialect: an inset, not an
    /// overlay, so the last rows and "load more" stay reachable under it. It is spoken with
    /// VoiceOver and goes by itself on the model's clock, except errors and while VoiceOver is on.
    struct DocumentBanner<Model: DocumentHosting>: ViewModifier {
        let model: Model
        /// The banner shown: the screen's drawn chrome, or the node document's model.
        let banner: Banner?
        /// The close button's label, in the document's language.
        let closeLabel: String
        @Environment(\.accessibilityReduceMotion) private var reduceMotion
        @Environment(\.accessibilityVoiceOverEnabled) private var voiceOver

        func body(content: Content) -> some View {
            content
                .safeAreaInset(edge: .bottom, spacing: 0) {
                    VStack {
                        if let banner {
                            BannerView(banner: banner, closeLabel: closeLabel) { model.dismissBanner() }
                                .padding()
                                .transition(
                                    reduceMotion
                                        ? AnyTransition.opacity : AnyTransition.move(edge: .bottom).combined(with: .opacity))
                        }
                    }
                    // Only the banner animates: rows that change with it (a delete) do not.
                    .animation(reduceMotion ? nil : .default, value: banner)
                }
                .task(id: banner) { [model, banner, voiceOver] in
                    if let banner { await model.bannerShown(banner, voiceOver: voiceOver, announce: Self.announce) }
                }
        }

        /// Has VoiceOver speak `message` (a banner appeared).
        private static func announce(_ message: String) {
            AccessibilityNotification.Announcement(message).post()
        }
    }

    /// A document's life on screen, in either dialect: it says how its tree is drawn, loads what
    /// it lacks when it appears (again after a load the view interrupted), pauses when it goes,
    /// and opens the external URLs its model allowed with the environment's `openURL`.
    struct DocumentLife<Model: DocumentHosting>: ViewModifier {
        let model: Model
        /// How the tree is lowered here (size class, platform).
        let options: RenderOptions
        @Environment(\.openURL) private var openURL

        func body(content: Content) -> some View {
            content
                // The model keeps the tree; the view only says how it is drawn (and redraws when
                // the model has rebuilt it). Nothing is rendered here.
                .task(id: options) { [model, options] in
                    model.renderOptions = options
                }
                .task { [model] in
                    await model.appeared()
                }
                .onDisappear {
                    model.disappeared()
                }
                .onChange(of: model.urlToOpen) { _, url in
                    guard let url else { return }
                    openURL(url)
                    // Cleared, so the same link opens again the next time.
                    model.didOpenURL()
                }
        }
    }

    /// A success, error or pending-offline message on glass, with a close button. Errors stay
    /// until closed; the others go away after a few seconds.
    struct BannerView: View {
        let banner: Banner
        let closeLabel: String
        let dismiss: () -> Void

        var body: some View {
            HStack(spacing: 12) {
                Image(systemName: symbol)
                    .foregroundStyle(color)
                    .accessibilityHidden(true)
                Text(banner.message)
                    .font(.subheadline)
                    .frame(maxWidth: .infinity, alignment: .leading)
                Button(action: dismiss) {
                    Image(systemName: "xmark")
                        .font(.footnote.weight(.semibold))
                        .modifier(MinimumTapTarget())
                }
                .buttonStyle(.plain)
                .accessibilityLabel(Text(closeLabel))
            }
            .padding()
            .modifier(GlassBackground())
            .accessibilityElement(children: .contain)
        }

        private var symbol: String {
            switch banner.kind {
            case .success: "checkmark.circle.fill"
            case .error: "exclamationmark.triangle.fill"
            case .pending: "clock.arrow.circlepath"
            }
        }

        private var color: Color {
            switch banner.kind {
            case .success: Color.green
            case .error: Color.red
            case .pending: Color.orange
            }
        }
    }
#endif
