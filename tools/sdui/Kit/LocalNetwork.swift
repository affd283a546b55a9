import DynamicUI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This machine's addresses on its networks, for `sdui serve --lan`.
public enum LocalNetwork {
    /// The IPv4 addresses of the interfaces that are up, loopback left out, private ranges
    /// (10/8, 172.16/12, 192.168/16) first.
    public static func addresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard
                getnameinfo(
                    address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
                    == 0
            else { continue }
            let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !found.contains(text) { found.append(text) }
        }
        return found.sorted { isPrivate($0) && !isPrivate($1) }
    }

    /// Whether `address` is one a following app accepts from `DYNAMICUI_PREVIEW` without being
    /// told: a private network's (the rule is `DevelopmentPreview`'s).
    public static func isPrivate(_ address: String) -> Bool { DevelopmentPreview.isPrivateNetwork(address) }
}
