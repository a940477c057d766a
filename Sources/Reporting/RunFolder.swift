import Foundation

/// A run's output folder, built under a hidden temporary name and renamed into place only
/// when complete: a killed run leaves `.NAME.partial`, never a folder that looks finished.
public final class RunFolder {
    public let finalURL: URL
    public let stagingURL: URL
    private var committed = false

    /// Creates the staging folder for `finalURL`; fails if `finalURL` already exists.
    public init(finalURL: URL) throws {
        let fm = FileManager.default
        self.finalURL = finalURL.standardizedFileURL
        let parent = self.finalURL.deletingLastPathComponent()
        stagingURL = parent.appendingPathComponent(".\(self.finalURL.lastPathComponent).partial-\(ProcessInfo.processInfo.processIdentifier)")
        if fm.fileExists(atPath: self.finalURL.path) {
            throw ReportingError.io(path: self.finalURL.path, reason: "already exists; choose another --out folder")
        }
        do {
            try fm.createDirectory(at: parent, withIntermediateDirectories: true)
            if fm.fileExists(atPath: stagingURL.path) { try fm.removeItem(at: stagingURL) }
            try fm.createDirectory(at: stagingURL, withIntermediateDirectories: false)
        } catch {
            throw ReportingError.io(path: parent.path, reason: "cannot create the results folder (\(error.localizedDescription))")
        }
    }

    /// Writes one file atomically (temporary name, then rename) inside the staging folder.
    public func write(_ name: String, _ data: Data) throws {
        precondition(!committed, "run folder already committed")
        let url = stagingURL.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw ReportingError.io(path: url.path, reason: "cannot write (\(error.localizedDescription))")
        }
        try AtomicFile.write(data, to: url)
    }

    /// Moves the finished folder to its final name.
    public func commit() throws {
        do {
            try FileManager.default.moveItem(at: stagingURL, to: finalURL)
            committed = true
        } catch {
            throw ReportingError.io(path: finalURL.path, reason: "cannot move the finished run into place (\(error.localizedDescription))")
        }
    }

    /// Removes the staging folder of an abandoned run.
    public func discard() {
        if !committed { try? FileManager.default.removeItem(at: stagingURL) }
    }
}

/// The one way ENSim writes a file that someone may be reading: the data goes to a hidden
/// temporary file beside the target, created with its final permissions, which is then renamed
/// into place, so a reader sees the old file or the new one, never half of one.
public enum AtomicFile {
    /// - Throws: `ReportingError.io` naming `url` when the file cannot be written.
    public static func write(_ data: Data, to url: URL, permissions: Int = 0o644) throws {
        let path = url.path
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)").path
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: permissions]) else {
            throw ReportingError.io(path: path, reason: "cannot write")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw ReportingError.io(path: path, reason: "cannot write (\(reason))")
        }
    }
}
