// A deliberate misuse the check must reject: Liquid Glass is iOS 26, the package's deployment
// target is iOS 17, and this call is not behind `if #available(iOS 26.0, *)`.
import SwiftUI

struct Card: View {
    var body: some View {
        Text("Hello").glassEffect(.regular, in: RoundedRectangle(cornerRadius: 16))
    }
}
// expect-error: 'glassEffect(_:in:)' is only available in iOS 26.0 or newer
