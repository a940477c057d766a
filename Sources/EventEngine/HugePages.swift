#if canImport(Glibc)
import Glibc
#endif

/// Transparent huge pages for the engine's big tables.
///
/// A hold step at a million pending events touches a random bucket, node and payload slot;
/// with 4 KiB pages each of those is also a TLB miss (a page walk). This machine's kernel
/// gives 2 MiB pages only to ranges advised with `madvise(MADV_HUGEPAGE)` ("madvise" mode).
@usableFromInline
enum HugePages {
    @usableFromInline static let size = 2 << 20

    /// A buffer for `capacity` values: 2 MiB-aligned and advised for huge pages when it spans
    /// at least two of them, an ordinary allocation otherwise. Free it with `deallocate()`.
    @usableFromInline
    static func allocate<T>(_ type: T.Type = T.self, capacity: Int) -> UnsafeMutablePointer<T> {
        let bytes = capacity * MemoryLayout<T>.stride
        guard bytes >= 2 * size else { return .allocate(capacity: capacity) }
        let rounded = (bytes + size - 1) / size * size
        let raw = UnsafeMutableRawPointer.allocate(byteCount: rounded, alignment: size)
        advise(raw, bytes: rounded)
        return raw.bindMemory(to: T.self, capacity: capacity)
    }

    /// Advises the whole 2 MiB pages inside `[start, start + bytes)` (no-op elsewhere than Linux).
    @usableFromInline
    static func advise(_ start: UnsafeMutableRawPointer, bytes: Int) {
        #if canImport(Glibc)
        let begin = (Int(bitPattern: start) + size - 1) / size * size
        let end = (Int(bitPattern: start) + bytes) / size * size
        guard end > begin, let pointer = UnsafeMutableRawPointer(bitPattern: begin) else { return }
        _ = madvise(pointer, end - begin, MADV_HUGEPAGE)
        #endif
    }
}
