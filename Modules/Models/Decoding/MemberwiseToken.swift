/// An empty member of every generated wire model and of `RenderNode` (`memberwise`), there only
/// to give the memberwise initializer Swift synthesizes a signature of its own, so the public
/// initializer (for the models, in `WireCoding.swift`) can call it.
///
/// A struct's explicit initializer assigns its members one by one, and once two or more of them
/// are `var`s Swift 6.3's optimizer loads the finished value twice, retaining and releasing
/// every member (an outlined copy and destroy of the whole value: of a `Slot`, 15 calls and
/// 360 bytes). The synthesized initializer builds the value in place. Decoding the 20 KB
/// screen spent about a tenth of its time on those copies.
package struct MemberwiseToken: Hashable, Sendable {
    /// The token.
    package init() {}
}
