// Runs one hot path a fixed number of times, for instruction counting under
// `valgrind --tool=callgrind` (deterministic for the same binary and input).
//
//     dynamicui-probe <json-reader-1000 | json-reader-itunes | json-reader-localized | json-document-1000 |
//                      json-document-itunes | json-document-localized | json-reader-timeline |
//                      json-document-timeline | json-document-colliding | json-reader-geojson | json-document-geojson |
//                      screen-decode | screen-decode-20k |
//                      screen-decode-localized | placeholders-3 | materials-lowering | bytes-to-rows |
//                      dashboard-reload | dashboard-patch | list-reload | list-patch | ticking-lowering |
//                      ticking-tick | ticking-keystroke | node-ticking-lowering | node-ticking-tick |
//                      node-ticking-keystroke | sizes> [iterations]
//     dynamicui-probe compare [rounds] [filter]   (side by side with the peers; see SideBySide.swift)
//     dynamicui-probe dump FOLDER                 (the reader inputs as files)
//     dynamicui-probe memory <tree | document | page> [items]
//                                                 (resident memory a parsed list holds, against
//                                                 its bytes; `page` as the screen model holds a
//                                                 list page; Linux, from /proc/self/statm)
//     dynamicui-probe read-file FILE [rounds] [document]
//                                                 (median nanoseconds of one JSONReader read: a
//                                                 `JSONValue` tree, or with `document` a `JSONDocument`)
import DynamicUIBenchInputs
import DynamicUICatalog
import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: dynamicui-probe <path> [iterations]\n".utf8))
    exit(64)
}
let iterations = arguments.count > 2 ? Int(arguments[2]) ?? 100 : 100
var sink = 0

switch arguments[1] {
case "json-reader-1000":
    let bytes = BenchInputs.list1000
    for _ in 0..<iterations { sink &+= (try JSONReader().read(bytes))["total"]?.intValue ?? 0 }
case "json-reader-itunes":
    let bytes = BenchInputs.itunesLookup
    for _ in 0..<iterations { sink &+= (try JSONReader().read(bytes))["resultCount"]?.intValue ?? 0 }
case "json-reader-localized":
    let bytes = BenchInputs.localizedScreen
    for _ in 0..<iterations { sink &+= (try JSONReader().read(bytes))["version"]?.intValue ?? 0 }
case "json-document-1000":
    let bytes = BenchInputs.list1000
    for _ in 0..<iterations { sink &+= (try JSONReader().document(bytes)).root["total"]?.numberValue?.intValue ?? 0 }
case "json-document-itunes":
    let bytes = BenchInputs.itunesLookup
    for _ in 0..<iterations { sink &+= (try JSONReader().document(bytes)).root["resultCount"]?.numberValue?.intValue ?? 0 }
case "json-document-localized":
    let bytes = BenchInputs.localizedScreen
    for _ in 0..<iterations { sink &+= (try JSONReader().document(bytes)).root["version"]?.numberValue?.intValue ?? 0 }
case "json-reader-timeline":
    let bytes = BenchInputs.escapedTimeline
    for _ in 0..<iterations { sink &+= (try JSONReader().read(bytes))["statuses"]?.arrayValue?.count ?? 0 }
case "json-document-timeline":
    let bytes = BenchInputs.escapedTimeline
    for _ in 0..<iterations { sink &+= (try JSONReader().document(bytes)).root["statuses"]?.count ?? 0 }
case "json-document-colliding":
    let bytes = BenchInputs.colliding400
    for _ in 0..<iterations { sink &+= (try JSONReader().document(bytes)).root.count }
case "json-reader-geojson":
    let bytes = BenchInputs.geoJSON
    for _ in 0..<iterations { sink &+= (try JSONReader().read(bytes))["features"]?.arrayValue?.count ?? 0 }
case "json-document-geojson":
    let bytes = BenchInputs.geoJSON
    for _ in 0..<iterations { sink &+= (try JSONReader().document(bytes)).root["features"]?.count ?? 0 }
case "screen-decode-localized":
    let bytes = BenchInputs.localizedScreen
    for _ in 0..<iterations { sink &+= try DocumentDecoder().decode(ScreenDefinition.self, from: bytes).template.zones.count }
case "screen-decode":
    let bytes = JSONWriter().bytes(from: try BenchInputs.edugo.screenJSON("materials-list"))
    for _ in 0..<iterations { sink &+= try DocumentDecoder().decode(ScreenDefinition.self, from: bytes).template.zones.count }
case "screen-decode-20k":
    let bytes = BenchInputs.screen20k
    for _ in 0..<iterations { sink &+= try DocumentDecoder().decode(ScreenDefinition.self, from: bytes).template.zones.count }
case "placeholders-3":
    let template = try TextTemplate.compile(BenchInputs.threePlaceholderText)
    let context = BenchInputs.rowContext
    for _ in 0..<iterations { sink &+= try template.render(in: context).utf8.count }
case "materials-lowering":
    let items = ListItems(BenchInputs.materials1000)
    for _ in 0..<iterations { sink &+= BenchInputs.lowerMaterials(items) }
case "bytes-to-rows":
    let bytes = BenchInputs.materials1000Bytes
    for _ in 0..<iterations { sink &+= BenchInputs.bytesToRows(bytes) }
case "dashboard-reload":
    for _ in 0..<iterations {
        sink &+= LiveInputs.reload(screen: LiveInputs.dashboardBytes, data: nil, staticData: LiveInputs.dashboardData).1
    }
case "dashboard-patch":
    // The screen shown once, then one card patched per iteration (to its new version and back).
    var (shown, _) = LiveInputs.reload(screen: LiveInputs.dashboardBytes, data: nil, staticData: LiveInputs.dashboardData)
    for iteration in 0..<iterations {
        sink &+= LiveInputs.patchScreen(&shown, with: LiveInputs.dashboardPatches[iteration % 2])
    }
case "list-reload":
    for _ in 0..<iterations {
        sink &+= LiveInputs.reload(screen: BenchInputs.materialsListBytes, data: LiveInputs.listBytes).1
    }
case "list-patch":
    // The list shown once, then one record patched per iteration (to its new version and back).
    var (shown, _) = LiveInputs.reload(screen: BenchInputs.materialsListBytes, data: LiveInputs.listBytes)
    for iteration in 0..<iterations { sink &+= LiveInputs.patchData(&shown, with: LiveInputs.listPatches[iteration % 2]) }
case "ticking-lowering":
    // The ticking screen drawn in full: the cost a tick or a keystroke is measured against.
    let shown = LiveInputs.ticking()
    for iteration in 0..<iterations { sink &+= LiveInputs.drawTicking(shown, remaining: iteration, note: "", memo: false) }
case "ticking-tick":
    // Drawn once, then one timer tick per iteration: the countdown changes.
    let shown = LiveInputs.ticking()
    let rows = LiveInputs.ShownRows()
    sink &+= LiveInputs.drawTicking(shown, remaining: 600, note: "", shownRows: rows)
    for iteration in 0..<iterations {
        sink &+= LiveInputs.drawTicking(shown, remaining: 599 - iteration, note: "", shownRows: rows)
    }
case "ticking-keystroke":
    // Drawn once, then one keystroke per iteration in a field the screen shows.
    let shown = LiveInputs.ticking()
    let rows = LiveInputs.ShownRows()
    sink &+= LiveInputs.drawTicking(shown, remaining: 600, note: "", shownRows: rows)
    var note = ""
    for iteration in 0..<iterations {
        note = note.count > 30 ? "" : note + (iteration % 2 == 0 ? "a" : "b")
        sink &+= LiveInputs.drawTicking(shown, remaining: 600, note: note, shownRows: rows)
    }
case "node-ticking-lowering":
    // The ticking node document drawn in full.
    for iteration in 0..<iterations { sink &+= LiveInputs.drawTickingDocument(remaining: iteration, note: "", memo: nil) }
case "node-ticking-tick":
    // Drawn once, then one timer tick per iteration.
    let memo = NodeRenderMemo()
    let rows = LiveInputs.ShownRows()
    sink &+= LiveInputs.drawTickingDocument(remaining: 600, note: "", memo: memo, shownRows: rows)
    for iteration in 0..<iterations {
        sink &+= LiveInputs.drawTickingDocument(remaining: 599 - iteration, note: "", memo: memo, shownRows: rows)
    }
case "node-ticking-keystroke":
    // Drawn once, then one keystroke per iteration in a bound field.
    let memo = NodeRenderMemo()
    let rows = LiveInputs.ShownRows()
    sink &+= LiveInputs.drawTickingDocument(remaining: 600, note: "", memo: memo, shownRows: rows)
    var note = ""
    for iteration in 0..<iterations {
        note = note.count > 30 ? "" : note + (iteration % 2 == 0 ? "a" : "b")
        sink &+= LiveInputs.drawTickingDocument(remaining: 600, note: note, memo: memo, shownRows: rows)
    }
case "compare":
    // Interposer-free, A/B interleaved side by side: dynamicui-probe compare [rounds] [filter]
    try SideBySide.run(rounds: iterations, filter: arguments.count > 3 ? arguments[3] : nil)
    exit(0)
case "dump":
    // Writes the reader inputs to a folder, for the reference parsers outside Swift.
    let folder = URL(fileURLWithPath: arguments.count > 2 ? arguments[2] : ".")
    for (name, bytes) in BenchInputs.readerInputs {
        try Data(bytes).write(to: folder.appendingPathComponent(name.replacingOccurrences(of: " ", with: "-") + ".json"))
    }
    exit(0)
case "read-file":
    // Median wall time of reading one file with JSONReader: dynamicui-probe read-file FILE [rounds]
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: arguments[2])))
    let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 50 : 50
    let asDocument = arguments.count > 4 && arguments[4] == "document"
    var times: [Double] = []
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        if asDocument {
            sink &+= (try JSONReader().document(bytes)).root.count
        } else {
            sink &+= (try JSONReader().read(bytes)).objectValue?.count ?? 0
        }
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start))
    }
    print(SideBySide.median(times))
    exit(sink == -1 ? 1 : 0)
case "memory":
    // dynamicui-probe memory <tree | document | page> [items]: the list's bytes are made first
    // (they stand for the file), then the resident set is read before and after parsing it, with
    // the parsed list held (`page`: the document and its items, as the screen model holds them).
    let count = arguments.count > 3 ? Int(arguments[3]) ?? 100_000 : 100_000
    let bytes = BenchInputs.listPayload(count: count)
    func resident() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = Int(statm.split(separator: " ")[1])
        else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
    // What making the bytes freed goes back to the system first, so the parse cannot reuse it.
    if let trim = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") {
        _ = unsafeBitCast(trim, to: (@convention(c) (Int) -> Int32).self)(0)
    }
    let before = resident()
    var held: [Any] = []
    if arguments[2] == "document" {
        let document = try JSONReader().document(bytes)
        sink &+= document.root["items"]?.count ?? 0
        held.append(document)
    } else if arguments[2] == "page" {
        let items = try JSONReader().document(bytes).root["items"].flatMap(ListItems.init(array:)) ?? []
        sink &+= items.count
        held.append(items)
    } else {
        let value = try JSONReader().read(bytes)
        sink &+= value["items"]?.arrayValue?.count ?? 0
        held.append(value)
    }
    let after = resident()
    let megabytes = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1_000_000) }
    print(
        "\(arguments[2]) of \(count) items: file \(megabytes(bytes.count)), resident +\(megabytes(after - before))"
            + " (\(String(format: "%.2f", Double(after - before) / Double(bytes.count)))× the file)")
    withExtendedLifetime(held) {}
    exit(sink == -1 ? 1 : 0)
case "sizes":
    for (name, bytes) in BenchInputs.readerInputs { print("\(name)\t\(bytes.count)") }
    print("materials-list (composed)\t\(BenchInputs.materialsListBytes.count)")
    exit(0)
default:
    FileHandle.standardError.write(Data("unknown path \(arguments[1])\n".utf8))
    exit(64)
}
print(sink)
