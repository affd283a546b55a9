public import DynamicUIModels
import DynamicUIResolvers

extension ClientCapabilities {
    /// The version of this SDK, as it reports itself in capability manifests.
    public static let sdkVersion = "0.3.0"

    /// What this SDK draws, with the host's native components: every pattern, zone type,
    /// control type, node type, action type and transform it knows.
    public static func sdk(platform: RenderPlatform? = nil, components: NativeComponentRegistry = .empty) -> ClientCapabilities {
        ClientCapabilities(
            schemaVersion: currentSchemaVersion, sdkVersion: sdkVersion, platform: platform?.rawValue,
            patterns: Set(ScreenPattern.knownCases.map(\.rawValue)), zoneTypes: Set(ZoneType.knownCases.map(\.rawValue)),
            controlTypes: Set(ControlType.knownCases.map(\.rawValue)), nodeTypes: Set(NodeType.knownCases.map(\.rawValue)),
            actionTypes: Set(ActionType.knownCases.map(\.rawValue)), nodeActionTypes: Set(NodeAction.knownTypes),
            transforms: Set(Transform.names), components: Set(components.types), features: features)
    }

    /// The behaviours this SDK has beyond its types, as `feature:NAME` capabilities.
    public static let features: Set<String> = [
        "deferred-sections", "patches", "refresh-patches", "timers", "transitions", "variables", "visibility-actions",
    ]
}
