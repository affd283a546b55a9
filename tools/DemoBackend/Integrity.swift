import DynamicUIModels
import Foundation

/// The rules that keep the demo data consistent, as a real backend's constraints would: a record
/// created under a parent names an existing one.
extension DemoRouter {
    /// The collection a parent id field of a route names (`school_id` → `schools`).
    static let parentCollections: [String: String] = [
        "school_id": "schools", "unit_id": "units", "material_id": "materials",
    ]

    /// Why a create under a route's parent cannot go on, if it cannot: a route parameter left
    /// empty or unfilled (`/v1/schools/{id}/units`) is a 400 naming the field, a parent that does
    /// not exist a 404.
    func routeProblem(in filter: [(String, String)]) throws -> DemoBackend.Reply? {
        for (field, value) in filter {
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty || trimmed.contains("{") || trimmed.contains("}") {
                return DemoBackend.Reply(
                    status: 400,
                    body: [
                        "error": "missing_parameter", "field": .string(field),
                        "message": .string("Falta el valor de «\(field)» en la dirección de la petición"),
                    ])
            }
            if let parents = Self.parentCollections[field], try backend.record(parents, id: trimmed) == nil {
                return DemoBackend.Reply(
                    status: 404,
                    body: [
                        "error": "not found", "field": .string(field),
                        "message": .string("No existe el registro «\(trimmed)» al que se refiere «\(field)»"),
                    ])
            }
        }
        return nil
    }
}
