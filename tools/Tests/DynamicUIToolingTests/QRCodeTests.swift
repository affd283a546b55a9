import DynamicUITooling
import Foundation
import Testing

/// The QR code `sdui serve --lan` prints, read back by a decoder that is not ours (ZBar's
/// `zbarimg`, from Debian's zbar-tools) at every length up to the largest version.
@Suite("QR code of the preview's address")
struct QRCodeTests {
    /// What `zbarimg` reads in the code of `text`.
    func decoded(_ code: QRCode) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).pgm")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(code.pgm(scale: 4)).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        process.arguments = ["--raw", "-q", "-Sqrcode.enable", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    @Test(arguments: [1, 7, 14, 20, 26, 34, 42, 50, 62, 80, 84, 100, 106, 122, 140, 154, 170, 180, 200, 213])
    func aDecoderReadsTheTextBack(length: Int) throws {
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg"), "zbar-tools is installed (.ci/run installs it)")
        let address = "http://192.168.1.20:8080/"
        var text = String((address + String(repeating: "abcdefghij", count: 22)).prefix(length))
        if length == 7 { text = "dynámic" }  // bytes beyond ASCII
        let code = try #require(QRCode(text))
        #expect(code.size == code.version * 4 + 17)
        #expect(try decoded(code) == text, "version \(code.version), mask \(code.mask)")
    }

    @Test func theSmallestVersionThatHoldsTheTextIsChosenAndTooLongIsRefused() throws {
        #expect(QRCode("http://127.0.0.1:8080/")?.version == 2)
        #expect(QRCode(String(repeating: "x", count: QRCode.capacity))?.version == 10)
        #expect(QRCode(String(repeating: "x", count: QRCode.capacity + 1)) == nil)
    }

    @Test func theTerminalTextHasTwoRowsOfModulesALine() throws {
        let code = try #require(QRCode("http://10.0.0.2:8080/"))
        let plain = code.terminalText(ansi: false).split(separator: "\n")
        #expect(plain.count == (code.size + 4 + 1) / 2)
        #expect(plain.allSatisfy { $0.count == code.size + 4 })
        #expect(!plain.joined().contains("\u{1B}"))
        #expect(code.terminalText(ansi: true).contains("\u{1B}[0m"))
    }
}
