// A deliberate misuse the check must reject: a supplemented iOS 17 API called with a label
// Apple's declaration does not have (`min:`, not `minimum:`), and an `onChange` closure with
// the wrong number of parameters.
import SwiftUI

struct Screen: View {
    @State private var isPresented = false
    @State private var query = ""

    var body: some View {
        Text("Detail")
            .inspector(isPresented: $isPresented) {
                Text("Inspector").inspectorColumnWidth(minimum: 240, ideal: 300)
            }
            .onChange(of: query) { old, new, extra in print(old, new, extra) }
    }
}
// expect-error: extra argument 'ideal' in call
// expect-error: but 3 were used in closure body
