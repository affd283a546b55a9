#if canImport(SwiftUI)
    import DynamicUI
    import DynamicUIActions
    import DynamicUIModels
    import DynamicUIRendering
    import Foundation
    import SwiftUI

    #if os(iOS)
        import UIKit
    #endif

    /// A form control: inputs are two-way bound to the form state through their field name and show
    /// their error in red below; selection controls fire their action when changed; buttons fire
    /// theirs with the style of their role.
    struct ControlNodeView<Host: RenderTreeHost>: View {
        let control: ControlNode
        let accessibility: AccessibilityInfo?
        let host: Host
        let item: JSONValue?
        @Environment(\.nodeContainer) private var container

        var body: some View {
            switch control.type {
            case .textInput, .emailInput, .passwordInput, .numberInput, .searchBar:
                FieldWithError(error: control.error) {
                    textInput
                }
            case .checkbox, .switch:
                FieldWithError(error: control.error) {
                    toggle
                }
            case .select:
                FieldWithError(error: control.error) {
                    picker(includesNone: true)
                        .pickerStyle(.menu)
                }
            case .radioGroup:
                FieldWithError(error: control.error) {
                    picker(includesNone: false)
                        .modifier(RadioPickerStyle())
                }
            case .filledButton, .outlinedButton, .textButton, .iconButton:
                button
            case .label, .icon, .avatar, .image, .divider, .chip, .rating, .listItem, .listItemNavigation, .metricCard, .unknown:
                Text(title)
                    .modifier(NodeAccessibility(info: accessibility))
            }
        }

        /// The label of the control (also the title of a button).
        private var title: String {
            control.label ?? control.value.displayText
        }

        /// The form field the control edits.
        private var field: String {
            control.field ?? ""
        }

        /// The text of the field: what was typed, else the value the tree resolved.
        private var text: Binding<String> {
            let fallback = control.value.displayText
            return Binding(
                get: { @MainActor in host.boundValue(for: field) ?? fallback },
                set: { @MainActor in host.setBoundValue(.string($0), for: field) })
        }

        /// A selection: it is stored, then the control's action (if any) runs.
        private var selection: Binding<String> {
            let fallback = control.value.displayText
            let actionId = control.actionId
            return Binding(
                get: { @MainActor in host.boundValue(for: field) ?? fallback },
                set: { @MainActor value in
                    host.setBoundValue(.string(value), for: field)
                    if let actionId { host.fire(actionId, item: item) }
                })
        }

        private var isOn: Binding<Bool> {
            Binding(
                get: { @MainActor in selection.wrappedValue == "true" },
                set: { @MainActor in selection.wrappedValue = $0 ? "true" : "false" })
        }

        @ViewBuilder
        private var textInput: some View {
            let prompt = Text(control.placeholder ?? control.label ?? "")
            if control.inputKind == .password {
                SecureField(control.label ?? "", text: text, prompt: prompt)
                    .modifier(InputTraits(kind: .password))
                    .disabled(control.isReadOnly)
                    .modifier(NodeAccessibility(info: accessibility))
                    .modifier(FocusChain(control: control, host: host, item: item))
            } else {
                TextField(control.label ?? "", text: text, prompt: prompt)
                    .modifier(InputTraits(kind: control.inputKind ?? .text))
                    .disabled(control.isReadOnly)
                    .modifier(NodeAccessibility(info: accessibility))
                    .modifier(FocusChain(control: control, host: host, item: item))
            }
        }

        private var toggle: some View {
            Toggle(isOn: isOn) {
                Text(title)
            }
            .checkboxStyle(control.type == .checkbox)
            .disabled(control.isReadOnly)
            .modifier(NodeAccessibility(info: accessibility))
        }

        private func picker(includesNone: Bool) -> some View {
            Picker(selection: selection) {
                if includesNone {
                    Text("—").tag("")
                }
                // Identified by place when two options share a value (each is still drawn).
                ForEach(Keyed.list(control.options, key: \.value)) { option in
                    Text(option.element.label).tag(option.element.value)
                }
            } label: {
                Text(title)
            }
            .disabled(control.isReadOnly)
            .modifier(NodeAccessibility(info: accessibility))
        }

        @ViewBuilder
        private var button: some View {
            let role: SwiftUI.ButtonRole? = control.role == .destructive ? .destructive : nil
            // Outside a list a plain button is borderless: only its label is tappable, so the
            // label is at least 44 by 44 points.
            let borderless = container != .list && (control.role == .plain || control.role == nil)
            let base = Button(role: role) {
                if let actionId = control.actionId { host.fire(actionId, item: item) }
            } label: {
                buttonLabel
                    .frame(maxWidth: container == .list && control.role == .primary ? .infinity : nil)
                    .frame(minWidth: borderless ? 44 : nil, minHeight: borderless ? 44 : nil)
                    .contentShape(Rectangle())
            }
            .disabled(control.actionId == nil)
            .modifier(NodeAccessibility(info: accessibility))
            // In a list or form the list's own button style (the row is the button).
            switch control.role {
            case .primary?:
                base.buttonStyle(.borderedProminent)
            case .secondary?, .destructive?:
                if container == .list {
                    base.buttonStyle(.automatic)
                } else {
                    base.buttonStyle(.bordered)
                }
            case .plain?, nil:
                if container == .list {
                    base.buttonStyle(.automatic)
                } else {
                    base.buttonStyle(.borderless)
                }
            }
        }

        @ViewBuilder
        private var buttonLabel: some View {
            if let icon = control.icon {
                let iconOnly = control.type == .iconButton
                Label(title, systemImage: icon)
                    .labelStyle(ControlLabelStyle(iconOnly: iconOnly))
                    .frame(minWidth: iconOnly ? 44 : nil, minHeight: iconOnly ? 44 : nil)
            } else {
                Text(title)
            }
        }
    }

    /// A control's label with a symbol: the symbol alone on an icon button (its title is still
    /// what VoiceOver reads), else the label as the enclosing style draws it.
    struct ControlLabelStyle: LabelStyle {
        let iconOnly: Bool

        @ViewBuilder
        func makeBody(configuration: Configuration) -> some View {
            if iconOnly {
                IconOnlyLabelStyle().makeBody(configuration: configuration)
            } else {
                Label(configuration)
            }
        }
    }

    /// A text input's place in the form's focus chain (`FormFocus`): its return key, moving to
    /// the next field on return and submitting on the last, and taking the focus when the view
    /// model gives it (after a failed submit, the first field with an error). A number pad has
    /// no return key: while a number field is focused the keyboard's toolbar has a button that
    /// does what return would (the next field, the submit, or the end of editing).
    struct FocusChain<Host: RenderTreeHost>: ViewModifier {
        let control: ControlNode
        let host: Host
        let item: JSONValue?
        @FocusState private var isFocused: Bool

        func body(content: Content) -> some View {
            content
                .submitLabel(submitLabel)
                .focused($isFocused)
                .onSubmit { returnPressed() }
                .onChange(of: host.focusedField) { _, field in
                    isFocused = field != nil && field == control.field
                }
                .onChange(of: isFocused) { _, focused in
                    if focused {
                        host.focusedField = control.field
                    } else if host.focusedField == control.field {
                        // The field left the chain: when the model gives it the focus again (the
                        // first invalid field after a failed submit) that is a change it sees.
                        host.focusedField = nil
                    }
                }
                .onAppear {
                    if host.focusedField != nil, host.focusedField == control.field { isFocused = true }
                }
                .toolbar {
                    ToolbarItemGroup(placement: .keyboard) {
                        // Only the focused number field's button (every field adds this group).
                        if isFocused && control.inputKind == .number {
                            Spacer()
                            Button(host.strings(.accept)) {
                                returnPressed()
                                if control.nextField == nil { isFocused = false }
                            }
                            .fontWeight(.semibold)
                        }
                    }
                }
        }

        /// Return: the next field takes the focus, else the form's submit action runs.
        private func returnPressed() {
            if let next = control.nextField {
                host.focusedField = next
            } else if let submit = control.submitActionId {
                host.fire(submit, item: item)
            }
        }

        private var submitLabel: SubmitLabel {
            switch control.returnKey {
            case .next?: .next
            case .go?: .go
            case .search?: .search
            case .done?, nil: .done
            }
        }
    }

    /// A control with its error, in red, below it.
    struct FieldWithError<Field: View>: View {
        let error: String?
        let field: Field

        init(error: String?, @ViewBuilder field: () -> Field) {
            self.error = error
            self.field = field()
        }

        var body: some View {
            VStack(alignment: .leading, spacing: 4) {
                field
                if let error {
                    Text(error)
                        .font(.footnote)
                        .foregroundStyle(Color.red)
                }
            }
        }
    }

    /// Keyboard, autofill and autocorrection of an input kind (iOS); the Mac only turns
    /// autocorrection off where it gets in the way.
    struct InputTraits: ViewModifier {
        let kind: InputKind

        @ViewBuilder
        func body(content: Content) -> some View {
            #if os(iOS)
                switch kind {
                case .email:
                    content
                        .textContentType(.emailAddress)
                        .keyboardType(.emailAddress)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                case .password:
                    content
                        .textContentType(.password)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                case .number:
                    content.keyboardType(.decimalPad)
                case .search:
                    content
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                        .submitLabel(.search)
                case .text:
                    content
                }
            #else
                switch kind {
                case .email, .password, .search:
                    content.autocorrectionDisabled()
                case .number, .text:
                    content
                }
            #endif
        }
    }

    /// Radio groups are radio buttons on the Mac and inline choices (checkmarked rows) on iOS.
    struct RadioPickerStyle: ViewModifier {
        @ViewBuilder
        func body(content: Content) -> some View {
            #if os(macOS)
                content.pickerStyle(.radioGroup)
            #else
                content.pickerStyle(.inline)
            #endif
        }
    }
#endif
