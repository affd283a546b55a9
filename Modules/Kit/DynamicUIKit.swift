// One import for an app that embeds the SDK: the runtime and configuration (DynamicUI), the
// wire models, the expression language, the render tree, actions and screen-handler plugins'
// API, the API client and the stores, and on Apple platforms the SwiftUI views. Handler plugins,
// the media player, the web renderer and the testing harness stay separate imports.
@_exported public import DynamicUI
@_exported public import DynamicUIActions
@_exported public import DynamicUIModels
@_exported public import DynamicUINetwork
@_exported public import DynamicUIRendering
@_exported public import DynamicUIResolvers
@_exported public import DynamicUIStorage
@_exported public import DynamicUISwiftUI
