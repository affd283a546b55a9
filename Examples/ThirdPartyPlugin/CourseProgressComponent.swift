// A native component as a third party writes it: the platform-neutral part names its type and
// actions and draws its HTML twin for the web preview; on Apple platforms the same type is a
// `SwiftUINativeComponent` with a SwiftUI view. Both faces read the node through one `Progress`,
// so they show the same thing. `Modules/Testing/DynamicUITesting.docc/WritingANativeComponent.md`
// shows how to test one with `NativeComponentHarness`.

public import DynamicUIModels
public import DynamicUIRendering

#if canImport(SwiftUI)
    public import DynamicUISwiftUI
    public import SwiftUI
#endif

/// A course's progress: `course-progress` (screens) or `course_progress` (node documents) with
/// `title`, `completed` and `total` lessons; fires `onContinue` when the user opens the course.
public struct CourseProgressComponent: NativeComponent {
    /// `course-progress`.
    public let type = "course-progress"
    /// `onContinue`.
    public let actionNames = ["onContinue"]

    /// The component.
    public init() {}

    /// What a node shows. Numbers from the server are clamped (`WireNumber` never traps):
    /// `total` to 0…10,000 lessons and `completed` to 0…`total`.
    public struct Progress: Sendable, Hashable {
        /// The course's name, empty when none.
        public let title: String
        /// Lessons completed.
        public let completed: Int
        /// Lessons in the course.
        public let total: Int
        /// The words of the component (Open) in the screen's language.
        public let strings: DynamicUIStrings

        /// The progress of `node`'s props.
        public init(_ node: CustomNode) {
            title = node.props["title"]?.stringValue ?? ""
            total = WireNumber.int(rounding: node.props["total"]?.doubleValue ?? 0, in: 0...10_000)
            completed = WireNumber.int(rounding: node.props["completed"]?.doubleValue ?? 0, in: 0...total)
            strings = node.strings
        }

        /// Completed lessons as a fraction (0 for an empty course).
        public var fraction: Double { total == 0 ? 0 : Double(completed) / Double(total) }
    }

    /// The web preview: the course, a meter of its lessons and a button that fires `onContinue`.
    public func html(_ node: CustomNode) -> HTMLFragment {
        let progress = Progress(node)
        return .element(
            "figure", attributes: [HTMLAttribute("class", "course-progress")],
            children: [
                .element("figcaption", children: [.text(progress.title)]),
                .element(
                    "meter",
                    attributes: [
                        HTMLAttribute("min", "0"), HTMLAttribute("max", "\(progress.total)"),
                        HTMLAttribute("value", "\(progress.completed)"),
                    ],
                    children: [.text("\(progress.completed) / \(progress.total)")]),
                .element("small", children: [.text("\(progress.completed) / \(progress.total)")]),
                .action("onContinue", label: [.text(progress.strings(.open))]),
            ])
    }
}

#if canImport(SwiftUI)
    extension CourseProgressComponent: SwiftUINativeComponent {
        /// A gauge of the lessons completed and the course's name; tapping it fires `onContinue`.
        @MainActor
        public func view(_ node: CustomNode, actions: NativeComponentActions) -> AnyView {
            AnyView(CourseProgressView(progress: Progress(node), onContinue: { actions.perform("onContinue") }))
        }
    }

    /// The SwiftUI face: one accessible button with the course, its lessons and a circular gauge.
    struct CourseProgressView: View {
        let progress: CourseProgressComponent.Progress
        let onContinue: @MainActor () -> Void

        var body: some View {
            Button {
                onContinue()
            } label: {
                HStack(spacing: 12) {
                    Gauge(value: progress.fraction) {
                        EmptyView()
                    } currentValueLabel: {
                        Text(progress.fraction, format: .percent.precision(.fractionLength(0)))
                    }
                    .gaugeStyle(.accessoryCircularCapacity)
                    VStack(alignment: .leading, spacing: 2) {
                        Text(progress.title).font(.headline)
                        Text("\(progress.completed) / \(progress.total)")
                            .font(.subheadline)
                            .foregroundStyle(.secondary)
                    }
                    Spacer(minLength: 0)
                    Image(systemName: "chevron.forward").foregroundStyle(.tertiary)
                }
                .contentShape(Rectangle())
            }
            .buttonStyle(.plain)
            // VoiceOver reads one button: the course, then how far along it is.
            .accessibilityLabel(progress.title)
            .accessibilityValue(Text(progress.fraction, format: .percent.precision(.fractionLength(0))))
            .accessibilityHint(progress.strings(.open))
        }
    }
#endif
