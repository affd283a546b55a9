// DynamicUISwiftUI draws the render tree of DynamicUIRendering with SwiftUI on Apple platforms.
// Every file is compiled only where SwiftUI exists (`#if canImport(SwiftUI)`); elsewhere the
// module is empty, so a package that depends on it still builds on Linux.
