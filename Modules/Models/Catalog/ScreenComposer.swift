/// Combines a reusable screen template with a screen instance into the JSON of the
/// `ScreenDefinition` that `GET /v1/screens/{key}` returns.
///
/// The rule: every instance field except `template_id` and `zone_overrides` is copied;
/// `pattern` and `template` come from the template document; each entry of `zone_overrides`
/// (keyed by zone id, found depth-first through nested zones) replaces the named fields of
/// that zone, a `null` value removing the field. An override for a zone id that does not exist
/// is an error located at the override.
public enum ScreenComposer {
    /// Composes the screen JSON. `template` is a template document (`template_id`, `pattern`,
    /// `template`); `instance` is a screen instance.
    public static func compose(template: JSONValue, instance: JSONValue) throws(ModelDecodingError) -> JSONValue {
        let context = ModelDecodingContext()
        let templateDocument = try context.object(template)
        let instanceObject = try context.object(instance)
        guard let pattern = templateDocument["pattern"], !pattern.isNull else {
            throw ModelDecodingError(.missingField, at: "pattern", "template document has no 'pattern'")
        }
        guard case .object(var templateBody)? = templateDocument["template"] else {
            throw ModelDecodingError(.missingField, at: "template", "template document has no 'template' object")
        }

        if let overrides = instanceObject["zone_overrides"], !overrides.isNull {
            guard case .object(let overrideMap) = overrides else {
                throw ModelDecodingError(.typeMismatch, at: "zone_overrides", "expected an object keyed by zone id")
            }
            guard case .array(var zones)? = templateBody["zones"] else {
                throw ModelDecodingError(.missingField, at: "template.zones", "template has no zones to override")
            }
            for (zoneId, override) in overrideMap {
                let location = JSONLocation(components: [.key("zone_overrides"), .key(zoneId)])
                guard case .object(let fields) = override else {
                    throw ModelDecodingError(.typeMismatch, at: location, "expected an object of zone fields")
                }
                guard apply(fields, toZone: zoneId, in: &zones) else {
                    throw ModelDecodingError(.invalidValue, at: location, "no zone with id '\(zoneId)' in the template")
                }
            }
            templateBody["zones"] = .array(zones)
        }

        var screen = JSONObject()
        for (key, value) in instanceObject where key != "template_id" && key != "zone_overrides" {
            screen[key] = value
        }
        screen["pattern"] = pattern
        screen["template"] = .object(templateBody)
        return .object(screen)
    }

    /// Composes and decodes the screen.
    public static func composeScreen(template: JSONValue, instance: JSONValue) throws(ModelDecodingError) -> ScreenDefinition {
        try ScreenDefinition(json: compose(template: template, instance: instance))
    }

    /// Replaces fields of the zone `id` wherever it is; returns whether it was found.
    private static func apply(_ fields: JSONObject, toZone id: String, in zones: inout [JSONValue]) -> Bool {
        for index in zones.indices {
            guard case .object(var zone) = zones[index] else { continue }
            if zone["id"] == .string(id) {
                for (key, value) in fields { zone[key] = value.isNull ? nil : value }
                zones[index] = .object(zone)
                return true
            }
            if case .array(var nested)? = zone["zones"], apply(fields, toZone: id, in: &nested) {
                zone["zones"] = .array(nested)
                zones[index] = .object(zone)
                return true
            }
        }
        return false
    }
}
