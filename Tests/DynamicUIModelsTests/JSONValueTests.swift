import Foundation
import Testing

@testable import DynamicUIModels

@Suite("JSONValue and JSONWriter")
struct JSONValueTests {
    @Test func accessors() throws {
        let value: JSONValue = ["name": "Ana", "age": 31, "score": 9.5, "tags": ["a", "b"], "ok": true, "none": nil]
        #expect(value["name"]?.stringValue == "Ana")
        #expect(value["age"]?.intValue == 31)
        #expect(value["score"]?.doubleValue == 9.5)
        #expect(value["score"]?.intValue == nil)
        #expect(value["tags"]?[1]?.stringValue == "b")
        #expect(value["tags"]?[2] == nil)
        #expect(value["ok"]?.boolValue == true)
        #expect(value["none"]?.isNull == true)
        #expect(value["missing"] == nil)
        #expect(value["name"]?["x"] == nil)
    }

    @Test func pathSubscript() throws {
        let value = try JSONReader().read(#"{"results": [{"artist": {"name": "Zoe"}}], "a.b": 1}"#)
        #expect(value[path: "results[0].artist.name"] == .string("Zoe"))
        #expect(value[path: "results[1].artist"] == nil)
        #expect(value[path: "results.artist"] == nil)
        #expect(value[path: ""] == value)
    }

    @Test func numberEqualityAndHashing() {
        #expect(JSONNumber(1) == JSONNumber(1.0))
        #expect(JSONNumber(1).hashValue == JSONNumber(1.0).hashValue)
        #expect(JSONNumber(1) != JSONNumber(1.5))
        #expect(JSONNumber(Int64.max) != JSONNumber(Double(Int64.max)))
        #expect(JSONNumber(2) < JSONNumber(2.5))
        #expect(JSONNumber(1e20).description == "1e+20")
        #expect(JSONNumber(3.0).description == "3")
        #expect(JSONNumber(0.1).description == "0.1")
    }

    @Test func objectEqualityIgnoresOrderButKeepsIt() {
        let a: JSONValue = ["x": 1, "y": 2]
        let b: JSONValue = ["y": 2, "x": 1]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.objectValue?.keys == ["x", "y"])
        #expect(b.objectValue?.keys == ["y", "x"])
        #expect(a != ["x": 1])
        #expect(a != ["x": 1, "y": 3])
        #expect(Set([a, b]).count == 1)
    }

    @Test func objectMutationAcrossIndexThreshold() {
        var object = JSONObject()
        for index in 0..<30 { object["k\(index)"] = .number(JSONNumber(index)) }
        #expect(object.count == 30)
        #expect(object["k29"] == .number(29))
        object["k3"] = nil
        #expect(object["k3"] == nil)
        #expect(object["k4"] == .number(4))
        #expect(object.count == 29)
        object["k4"] = "replaced"
        #expect(object.keys[3] == "k4")
        #expect(object["k4"] == "replaced")
    }

    @Test func writerEscapesAndFormats() throws {
        let value: JSONValue = ["q": "a\"b\\c\n\u{1}", "n": [1, 2.5, nil], "e": [:], "u": "ñ😀"]
        let compact = JSONWriter().string(from: value)
        #expect(compact == #"{"q":"a\"b\\c\n\u0001","n":[1,2.5,null],"e":{},"u":"ñ😀"}"#)
        let pretty = JSONWriter(prettyPrinted: true, sortedKeys: true).string(from: ["b": [1], "a": "x"])
        #expect(pretty == "{\n  \"a\": \"x\",\n  \"b\": [\n    1\n  ]\n}")
        #expect(JSONWriter().string(from: .number(JSONNumber(Double.nan))) == "null")
        #expect(JSONWriter().string(from: .number(JSONNumber(-Double.infinity))) == "null")
        #expect(try JSONReader().read(compact) == value)
    }

    @Test func codableMatchesReader() throws {
        let text = #"{"a": [1, -2, 3.5, "s", true, null, {"b": {}}], "big": 9007199254740993}"#
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(decoded == (try JSONReader().read(text)))
        let encoded = try JSONEncoder().encode(decoded)
        #expect(try JSONReader().read(encoded) == decoded)
    }

    @Test func locationParsingAndPrinting() {
        let location: JSONLocation = "template.zones[2].slots[0].control_type"
        #expect(
            location.components == [.key("template"), .key("zones"), .index(2), .key("slots"), .index(0), .key("control_type")])
        #expect(location.description == "template.zones[2].slots[0].control_type")
        #expect(JSONLocation.root.description == "$")
        #expect(JSONLocation.root.appending(index: 3).appending(key: "a").description == "[3].a")
    }
}
