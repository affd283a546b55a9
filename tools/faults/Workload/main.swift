// The fault workload (tools/faults/README.md): simulated users driving the SDK's real data layer
// through the fault proxy, and the demo backend as a process of its own so that it can be killed.
//
//     fault-workload backend <database> <admin port> <mobile port>
//     fault-workload run <state folder> <base URL> <users> <seed> <seconds> [skew]
//     fault-workload heal <state folder> <base URL> <users> <seconds>
import DynamicUIDemoBackend
import Foundation

let arguments = ProcessInfo.processInfo.arguments

func usage() -> Never {
    say(
        """
        usage: fault-workload backend <database> <admin port> <mobile port>
               fault-workload run <state folder> <base URL> <users> <seed> <seconds> [skew]
               fault-workload heal <state folder> <base URL> <users> <seconds>
        """)
    exit(64)
}

/// Builds the devices of a run or a heal, one per user.
func devices(state: String, base: String, users: Int, seed: UInt64, skew: Bool) throws -> [Device] {
    let folder = URL(fileURLWithPath: state)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    guard let url = URL(string: base) else { usage() }
    let session = "\(ProcessInfo.processInfo.processIdentifier)-\(UInt64(Date().timeIntervalSince1970 * 1000))"
    return try (0..<users).map { index in
        try Device(index: index, state: folder, base: url, seed: seed, session: session, skewClock: skew)
    }
}

guard arguments.count > 1 else { usage() }
switch arguments[1] {
case "backend":
    guard arguments.count == 5, let admin = UInt16(arguments[3]), let mobile = UInt16(arguments[4]) else { usage() }
    let backend = try DemoBackend(databasePath: arguments[2])
    backend.logsMutations = true
    try await backend.start(adminPort: admin, mobilePort: mobile)
    FileHandle.standardOutput.write(Data("READY \(backend.mobileURL)\n".utf8))
    while true { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
case "run":
    guard arguments.count >= 7, let users = Int(arguments[4]), let seed = UInt64(arguments[5]),
        let seconds = Double(arguments[6])
    else { usage() }
    let all = try devices(
        state: arguments[2], base: arguments[3], users: users, seed: seed, skew: arguments.count > 7 && arguments[7] == "skew")
    let deadline = Date().addingTimeInterval(seconds)
    await withTaskGroup(of: Void.self) { group in
        for device in all {
            group.addTask {
                await device.start()
                await device.run(until: deadline)
            }
        }
    }
case "heal":
    guard arguments.count == 6, let users = Int(arguments[4]), let seconds = Double(arguments[5]) else { usage() }
    let all = try devices(state: arguments[2], base: arguments[3], users: users, seed: 0, skew: false)
    let left = await withTaskGroup(of: Int.self) { group in
        for device in all {
            group.addTask {
                await device.start()
                return await device.heal(timeout: seconds)
            }
        }
        var total = 0
        for await remaining in group { total += max(0, remaining) }
        return total
    }
    print("healed: \(left) requests left in the queues")
    exit(left == 0 ? 0 : 1)
default:
    usage()
}
