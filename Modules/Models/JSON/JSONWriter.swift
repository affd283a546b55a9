public import Foundation

/// Writes `JSONValue` as RFC 8259 JSON text: compact or pretty-printed, with keys in written
/// order or sorted. Non-finite numbers, which JSON cannot express, are written as `null`.
public struct JSONWriter: Sendable {
    /// Indent nested values with two spaces and put each member on its own line.
    public var prettyPrinted: Bool
    /// Write object keys in ascending byte order instead of written order.
    public var sortedKeys: Bool

    /// Creates a writer.
    public init(prettyPrinted: Bool = false, sortedKeys: Bool = false) {
        self.prettyPrinted = prettyPrinted
        self.sortedKeys = sortedKeys
    }

    /// The UTF-8 bytes of `value`.
    public func bytes(from value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, into: &output, indent: 0)
        return output
    }

    /// The text of `value`.
    public func string(from value: JSONValue) -> String {
        String(decoding: bytes(from: value), as: UTF8.self)
    }

    /// The UTF-8 data of `value`.
    public func data(from value: JSONValue) -> Data {
        Data(bytes(from: value))
    }

    private func newline(_ output: inout [UInt8], indent: Int) {
        guard prettyPrinted else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(0x20, count: indent * 2))
    }

    private func write(_ value: JSONValue, into output: inout [UInt8], indent: Int) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number):
            if case .floating(let double) = number.storage, !double.isFinite {
                output.append(contentsOf: "null".utf8)
            } else {
                output.append(contentsOf: number.description.utf8)
            }
        case .string(let string):
            Self.writeString(string, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                newline(&output, indent: indent + 1)
                write(element, into: &output, indent: indent + 1)
            }
            if !elements.isEmpty { newline(&output, indent: indent) }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            let entries: [JSONObject.Element] =
                sortedKeys ? object.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : Array(object)
            for (offset, entry) in entries.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                newline(&output, indent: indent + 1)
                Self.writeString(entry.key, into: &output)
                output.append(UInt8(ascii: ":"))
                if prettyPrinted { output.append(0x20) }
                write(entry.value, into: &output, indent: indent + 1)
            }
            if !entries.isEmpty { newline(&output, indent: indent) }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `string` as a quoted JSON string, escaping quotes, backslashes and control
    /// characters.
    static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSONReader {
    /// Reads one JSON text from UTF-8 data.
    public func read(_ data: Data) throws(JSONReadError) -> JSONValue {
        let result: Result<JSONValue, JSONReadError> = data.withUnsafeBytes { raw in
            Result { () throws(JSONReadError) -> JSONValue in try read(raw) }
        }
        return try result.get()
    }

    /// Reads one JSON text from UTF-8 data into a `JSONDocument`.
    public func document(_ data: Data) throws(JSONReadError) -> JSONDocument {
        try Self.unwrap(data.withUnsafeBytes { raw in readDocument(raw) })
    }
}
