/// An empty member (`memberwise`) of the generated wire models and `RenderNode`: it gives the
/// memberwise initializer Swift synthesizes a signature of its own, so the public one can call it.
///
/// An explicit initializer that assigns two or more `var` members one by one makes Swift 6.3's
/// optimizer copy the finished value once (a retain and a release of each reference-counted
/// member); the synthesized initializer builds it in place. Models with a hand-written
/// initializer (`// wire: init`) have no token.
package struct MemberwiseToken: Hashable, Sendable {
    /// The token.
    package init() {}
}
