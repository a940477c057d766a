import Foundation

/// An unlinked temporary file (in `TMPDIR`) that a store moves bytes it rarely reads to, so
/// that they count against the disk rather than the run's memory. Its space is freed when
/// the last reference goes. Reads and writes take explicit offsets: several threads may read.
package final class SpillFile: @unchecked Sendable {
    private let descriptor: Int32
    /// Bytes written so far (the next append's offset).
    package private(set) var size: Int64 = 0
    /// What the file holds, for the error messages ("the close-contact history").
    private let contents: String

    package struct SpillError: Error, CustomStringConvertible {
        package let description: String
    }

    /// - Throws: `SpillError` when no temporary file can be made.
    package init(holding contents: String, in folder: String = SpillFile.folder) throws {
        self.contents = contents
        var template = Array((folder + "/ensim-spill-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw SpillError(description: "cannot create a temporary file in \(folder) for \(contents) "
                             + "(\(String(cString: strerror(errno)))); set TMPDIR to a writable folder")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        descriptor = fd
    }

    deinit { close(descriptor) }

    package static var folder: String { FileManager.default.temporaryDirectory.path }

    /// Appends the elements' bytes and returns the offset they start at.
    /// - Throws: `SpillError` when the disk is full or failing.
    @discardableResult
    package func append<T: BitwiseCopyable>(_ elements: [T]) throws -> Int64 {
        let start = size
        try elements.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                // One call writes at most ~2 GB on Linux: loop until all is written.
                let n = pwrite(descriptor, raw.baseAddress! + done, raw.count - done, off_t(start + Int64(done)))
                guard n > 0 else {
                    throw SpillError(description: "cannot write \(contents) to \(Self.folder) (\(String(cString: strerror(errno)))); "
                                     + "set TMPDIR to a folder with space")
                }
                done += n
            }
        }
        size += Int64(MemoryLayout<T>.stride * elements.count)
        return start
    }

    /// `count` elements written at `offset` by `append`.
    package func read<T: BitwiseCopyable>(_ type: T.Type, count: Int, at offset: Int64) -> [T] {
        [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            var done = 0
            while done < raw.count {
                let n = pread(descriptor, raw.baseAddress! + done, raw.count - done, off_t(offset + Int64(done)))
                // Written by this process to an unlinked file: only a failing disk makes this fail.
                guard n > 0 else { fatalError("ensim: cannot read back \(contents): \(String(cString: strerror(errno)))") }
                done += n
            }
            initialized = count
        }
    }

    /// Element `index` of an array appended at `offset`.
    package func read<T: BitwiseCopyable>(_ type: T.Type, index: Int, of offset: Int64) -> T {
        read(type, count: 1, at: offset + Int64(index * MemoryLayout<T>.stride))[0]
    }
}
