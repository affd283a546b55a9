// A child process for the queue durability test: enqueues requests in a loop and prints
// "ACK <n> <key>" after each enqueue has returned (and so is on disk), until it is killed.
//
//     queue-writer <database path> <first index> <url>
import DynamicUIStorage
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4, let first = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: queue-writer <database path> <first index> <url>\n".utf8))
    exit(64)
}
do {
    let store = try OfflineQueueStore(path: arguments[1])
    var index = first
    while true {
        let key = "key-\(index)"
        let body = Data(#"{"n": \#(index), "title": "Material \#(index) ñ"}"#.utf8)
        try store.enqueue(
            NewQueuedRequest(
                method: "POST", url: arguments[3], headers: ["Authorization": "Bearer secret-\(index)"],
                body: body, idempotencyKey: key),
            at: Date())
        FileHandle.standardOutput.write(Data("ACK \(index) \(key)\n".utf8))
        index += 1
    }
} catch {
    FileHandle.standardError.write(Data("queue-writer: \(error)\n".utf8))
    exit(1)
}
