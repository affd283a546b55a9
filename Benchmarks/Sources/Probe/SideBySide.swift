// The interposer-free side-by-side mode: each comparison runs its contenders A/B interleaved in
// one process (round k runs every contender once, in rotating order), and reports each
// contender's median and the median of the per-round ratios against the first.
import DynamicUIBenchInputs
import DynamicUIModels
import DynamicUIResolvers
import Foundation
import Mustache

/// One contender: a name and a closure doing one unit of work, returning something to keep.
struct Contender {
    let name: String
    let run: () throws -> Int
}

/// One comparison: what is measured, how many bytes one unit reads (for MB/s), the contenders.
struct Comparison {
    let name: String
    let bytes: Int
    let repeats: Int
    let contenders: [Contender]
}

enum SideBySide {
    /// Runs every comparison for `rounds` rounds and prints a markdown table.
    static func run(rounds: Int, filter: String?) throws {
        print("| comparison | contender | median | MB/s | ratio (median of rounds) | spread of ratios |")
        print("|---|---|---:|---:|---:|---:|")
        for comparison in try comparisons() where filter.map({ comparison.name.contains($0) }) ?? true {
            // Warm up, and check every contender runs.
            for contender in comparison.contenders { _ = try contender.run() }
            var times = Array(repeating: [Double](), count: comparison.contenders.count)
            var sink = 0
            for round in 0..<rounds {
                for offset in 0..<comparison.contenders.count {
                    let index = (round + offset) % comparison.contenders.count
                    let contender = comparison.contenders[index]
                    let start = DispatchTime.now().uptimeNanoseconds
                    for _ in 0..<comparison.repeats { sink &+= try contender.run() }
                    let elapsed = DispatchTime.now().uptimeNanoseconds - start
                    times[index].append(Double(elapsed) / Double(comparison.repeats))
                }
            }
            if sink == 42 { print("") }
            let ours = times[0]
            for (index, contender) in comparison.contenders.enumerated() {
                let median = Self.median(times[index])
                let ratios = zip(times[index], ours).map { $0 / $1 }.sorted()
                let ratio = Self.median(ratios)
                let low = ratios[ratios.count / 10]
                let high = ratios[ratios.count - 1 - ratios.count / 10]
                let rate = comparison.bytes > 0 ? String(format: "%.0f", Double(comparison.bytes) / median * 1000) : ""
                let ratioText = index == 0 ? "1×" : String(format: "%.2f×", ratio)
                let spread = index == 0 ? "" : String(format: "%.2f–%.2f", low, high)
                print(
                    "| \(index == 0 ? comparison.name : "") | \(contender.name) | \(Self.format(median)) | \(rate) | \(ratioText) | \(spread) |"
                )
            }
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func format(_ nanoseconds: Double) -> String {
        if nanoseconds >= 1_000_000 { return String(format: "%.2f ms", nanoseconds / 1_000_000) }
        if nanoseconds >= 1_000 { return String(format: "%.1f µs", nanoseconds / 1_000) }
        return String(format: "%.0f ns", nanoseconds)
    }

    static func comparisons() throws -> [Comparison] {
        var all: [Comparison] = []
        let decoder = JSONDecoder()
        for (name, bytes) in BenchInputs.readerInputs {
            let data = Data(bytes)
            let isList = name.hasPrefix("list")
            let isLookup = name.hasPrefix("itunes")
            let isTimeline = name.hasPrefix("escaped timeline")
            let isGeoJSON = name.hasPrefix("geojson")
            var contenders = [
                Contender(name: "DynamicUI JSONReader → JSONValue") {
                    guard case .object(let object) = try JSONReader().read(bytes) else { return 0 }
                    return object.count
                },
                Contender(name: "DynamicUI JSONReader → JSONDocument") { try JSONReader().document(bytes).root.count },
                Contender(name: "JSONSerialization") {
                    (try JSONSerialization.jsonObject(with: data) as? NSDictionary)?.count ?? 0
                },
            ]
            // The plain structs an app would declare for this payload.
            let plain: () throws -> Int =
                if isLookup {
                    { try decoder.decode(PlainLookup.self, from: data).results.count }
                } else if isList {
                    { try decoder.decode(PlainList.self, from: data).items.count }
                } else if isTimeline {
                    { try decoder.decode(PlainTimeline.self, from: data).statuses.count }
                } else if isGeoJSON {
                    { try decoder.decode(PlainGeoJSON.self, from: data).features.count }
                } else {
                    { try decoder.decode(PlainScreen.self, from: data).template.zones.count }
                }
            contenders.append(Contender(name: "JSONDecoder → plain Codable structs", run: plain))
            all.append(
                Comparison(
                    name: "read \(name)", bytes: bytes.count, repeats: bytes.count > 1_000_000 ? 1 : 5, contenders: contenders))
        }
        for (name, bytes) in [
            ("materials-list", BenchInputs.materialsListBytes), ("screen 20KB", BenchInputs.screen20k),
            ("localized screen 46KB", BenchInputs.localizedScreen),
        ] {
            let data = Data(bytes)
            all.append(
                Comparison(
                    name: "decode \(name) → models", bytes: bytes.count, repeats: 20,
                    contenders: [
                        Contender(name: "DynamicUI DocumentDecoder → ScreenDefinition") {
                            try DocumentDecoder().decode(ScreenDefinition.self, from: bytes).template.zones.count
                        },
                        Contender(name: "JSONDecoder → plain Codable structs") {
                            try decoder.decode(PlainScreen.self, from: data).template.zones.count
                        },
                        Contender(name: "DynamicUI through a JSONValue tree → ScreenDefinition") {
                            try ScreenDefinition(json: JSONReader().read(bytes)).template.zones.count
                        },
                    ]))
        }
        let template = try TextTemplate.compile(BenchInputs.threePlaceholderText)
        let context = BenchInputs.rowContext
        let mustache = try MustacheTemplate(string: BenchInputs.threePlaceholderMustache)
        let mustacheContext = BenchInputs.mustacheContext()
        let user = BenchInputs.user
        let item: [String: String] = ["title": "Álgebra lineal para principiantes", "subject": "Matemáticas"]
        all.append(
            Comparison(
                name: "3 placeholders", bytes: 0, repeats: 2_000,
                contenders: [
                    Contender(name: "DynamicUI TextTemplate") { try template.render(in: context).utf8.count },
                    Contender(name: "swift-mustache") { mustache.render(mustacheContext).utf8.count },
                    Contender(name: "hand-written Swift interpolation") {
                        "Hola, \(user.firstName): \(item["title"] ?? "") (\(item["subject"] ?? ""))".utf8.count
                    },
                ]))
        let page = BenchInputs.materials1000Bytes
        let pageData = Data(page)
        all.append(
            Comparison(
                name: "bytes → first 20 rows (1,000 items)", bytes: page.count, repeats: 3,
                contenders: [
                    Contender(name: "DynamicUI read + lower") { BenchInputs.bytesToRows(page) },
                    Contender(name: "JSONDecoder → plain structs, first 20 titles") {
                        try decoder.decode(PlainList.self, from: pageData).items.prefix(20).map(\.title).count
                    },
                ]))
        return all
    }
}

/// A list payload item as an app would declare it for `JSONDecoder`.
struct PlainItem: Decodable {
    struct Author: Decodable {
        let name, id: String
    }
    let id, title, subject, created_at: String
    let grade: Int
    let score: Double
    let published: Bool
    let author: Author
}

/// The list payload.
struct PlainList: Decodable {
    let items: [PlainItem]
    let total: Int
}

/// A timeline search response as an app would declare it for `JSONDecoder`: the fields a feed
/// shows.
struct PlainTimeline: Decodable {
    struct Status: Decodable {
        struct User: Decodable {
            let id: Int
            let name, screen_name: String
            let location: String?
            let followers_count: Int
        }
        let id: Int
        let id_str, text, created_at: String
        let user: User
        let retweet_count, favorite_count: Int
        let lang: String
    }
    let statuses: [Status]
}

/// A GeoJSON FeatureCollection of polygons as an app would declare it for `JSONDecoder`.
struct PlainGeoJSON: Decodable {
    struct Feature: Decodable {
        struct Geometry: Decodable {
            let type: String
            let coordinates: [[[Double]]]
        }
        struct Properties: Decodable {
            let name: String
            let admin_level: Int
            let area_km2: Double
        }
        let type: String
        let properties: Properties
        let geometry: Geometry
    }
    let type: String
    let features: [Feature]
}

/// An iTunes lookup response as an app would declare it for `JSONDecoder`: the fields a
/// podcast page reads.
struct PlainLookup: Decodable {
    struct Result: Decodable {
        let wrapperType, kind, collectionName, trackName, trackViewUrl, releaseDate: String
        let artistName, feedUrl, artworkUrl600, shortDescription, description, episodeUrl: String?
        let collectionId, trackId: Int
        let trackTimeMillis: Int?
        let genres: [PlainAny]
    }
    let resultCount: Int
    let results: [Result]
}

/// A screen as an app would declare it for `JSONDecoder`: the fields the renderer reads.
struct PlainScreen: Decodable {
    struct Action: Decodable {
        let id, trigger, type: String
        let config: [String: PlainAny]?
    }
    struct Slot: Decodable {
        let id, control_type: String
        let field, label, style, icon, placeholder: String?
        let value: PlainAny?
        let required: Bool?
    }
    struct Zone: Decodable {
        let id, type: String
        let distribution, condition: String?
        let slots: [Slot]?
        let zones: [Zone]?
        let item_layout: ItemLayout?
    }
    struct ItemLayout: Decodable {
        let slots: [Slot]
    }
    struct Template: Decodable {
        let zones: [Zone]
    }
    let screen_id, screen_key, screen_name: String
    let version: Int
    let data_endpoint: String?
    let slot_data: [String: PlainAny]?
    let actions: [Action]?
    let template: Template
}

/// Any JSON value, decoded by trying the likely kinds in order (scalars first: most values are).
indirect enum PlainAny: Decodable {
    case string(String), number(Double), bool(Bool), array([PlainAny]), object([String: PlainAny]), null

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let string = try? single.decode(String.self) {
            self = .string(string)
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var object: [String: PlainAny] = [:]
            for key in keyed.allKeys { object[key.stringValue] = try keyed.decode(PlainAny.self, forKey: key) }
            self = .object(object)
        } else {
            var unkeyed = try decoder.unkeyedContainer()
            var array: [PlainAny] = []
            while !unkeyed.isAtEnd { array.append(try unkeyed.decode(PlainAny.self)) }
            self = .array(array)
        }
    }

    struct AnyKey: CodingKey {
        let stringValue: String
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}
