/// A list every session of a shard reuses: `removeAll()` only resets the count, and elements
/// live in storage of its own, so neither appends nor reads check the storage's uniqueness
/// (an array's checks were ~6% of the CDN phase). Not shared: a copy would share the storage.
struct ScratchList<Element: BitwiseCopyable> {
    private var storage = ScratchStorage<Element>(capacity: 16)
    private(set) var count = 0

    @inline(__always) mutating func removeAll() { count = 0 }

    @inline(__always) mutating func append(_ element: Element) {
        if count == storage.capacity { storage = ScratchStorage(capacity: 2 * count, copying: storage, count: count) }
        storage.base[count] = element
        count += 1
    }

    @inline(__always) subscript(i: Int) -> Element {
        precondition(i >= 0 && i < count, "index out of range")
        return storage.base[i]
    }

    var last: Element? { count > 0 ? storage.base[count - 1] : nil }
}

extension ScratchList where Element: Equatable {
    func contains(_ element: Element) -> Bool {
        for i in 0..<count where storage.base[i] == element { return true }
        return false
    }
}

/// A `ScratchList`'s elements: a fixed allocation, replaced by a larger one when full.
private final class ScratchStorage<Element: BitwiseCopyable> {
    let base: UnsafeMutablePointer<Element>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    convenience init(capacity: Int, copying other: ScratchStorage, count: Int) {
        self.init(capacity: capacity)
        base.initialize(from: other.base, count: count)
    }

    deinit { base.deallocate() }
}
