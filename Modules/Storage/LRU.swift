/// A dictionary that remembers use order and evicts the least recently used entry, with O(1)
/// get, set and remove (a doubly linked list threaded through the dictionary's nodes).
struct LRUDictionary<Key: Hashable, Value> {
    private struct Node {
        var value: Value
        var previous: Key?
        var next: Key?
    }

    private var nodes: [Key: Node] = [:]
    /// Most recently used.
    private var head: Key?
    /// Least recently used.
    private var tail: Key?

    var count: Int { nodes.count }

    /// Keys from least to most recently used.
    var keysByAge: [Key] {
        var result: [Key] = []
        var cursor = tail
        while let key = cursor {
            result.append(key)
            cursor = nodes[key]?.previous
        }
        return result
    }

    /// The value, marked as most recently used.
    mutating func get(_ key: Key) -> Value? {
        guard let node = nodes[key] else { return nil }
        moveToFront(key)
        return node.value
    }

    /// The value without changing the use order.
    func peek(_ key: Key) -> Value? { nodes[key]?.value }

    /// Inserts or replaces, as most recently used.
    mutating func set(_ key: Key, _ value: Value) {
        if nodes[key] != nil {
            nodes[key]!.value = value
            moveToFront(key)
            return
        }
        nodes[key] = Node(value: value, previous: nil, next: head)
        if let head { nodes[head]!.previous = key }
        head = key
        if tail == nil { tail = key }
    }

    /// Removes `key`; returns its value.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let node = nodes.removeValue(forKey: key) else { return nil }
        if let previous = node.previous { nodes[previous]!.next = node.next } else { head = node.next }
        if let next = node.next { nodes[next]!.previous = node.previous } else { tail = node.previous }
        return node.value
    }

    /// Removes and returns the least recently used entry.
    mutating func removeOldest() -> (key: Key, value: Value)? {
        guard let key = tail, let value = remove(key) else { return nil }
        return (key, value)
    }

    /// Every key (no particular order).
    var allKeys: [Key] { Array(nodes.keys) }

    mutating func removeAll() {
        nodes.removeAll()
        head = nil
        tail = nil
    }

    private mutating func moveToFront(_ key: Key) {
        guard head != key, let node = nodes[key] else { return }
        if let previous = node.previous { nodes[previous]!.next = node.next }
        if let next = node.next { nodes[next]!.previous = node.previous } else { tail = node.previous }
        nodes[key]!.previous = nil
        nodes[key]!.next = head
        if let head { nodes[head]!.previous = key }
        head = key
    }
}
