import Foundation

/// Where tests put their files: one folder per test process in the temporary folder, removed when
/// the process exits. (Each test's own folder used to stay behind: a run of the suite left about
/// a thousand in TMPDIR.)
public enum TestFolder {
    /// The process's folder, made and scheduled for removal on first use.
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ensim-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestFolder.root) }
        return url
    }()

    /// A new path named `prefix`-… inside the process's folder (not created).
    public static func url(_ prefix: String) -> URL {
        root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }
}
