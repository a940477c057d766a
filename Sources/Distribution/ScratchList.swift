/// A list every session of a shard reuses: `removeAll()` only resets the count and reads never
/// retain the storage. (Array's `removeAll(keepingCapacity:)` is a generic `replaceSubrange` call
/// and a `for … in` over a property copies the array's reference: together ~6% of the CDN phase.)
struct ScratchList<Element> {
    private var storage: [Element] = []
    private(set) var count = 0

    @inline(__always) mutating func removeAll() { count = 0 }

    @inline(__always) mutating func append(_ element: Element) {
        if count < storage.count { storage[count] = element } else { storage.append(element) }
        count += 1
    }

    @inline(__always) subscript(i: Int) -> Element { storage[i] }

    var last: Element? { count > 0 ? storage[count - 1] : nil }
}

extension ScratchList where Element: Equatable {
    func contains(_ element: Element) -> Bool {
        for i in 0..<count where storage[i] == element { return true }
        return false
    }
}
