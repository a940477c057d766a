import Foundation

/// A run's output folder, built under a hidden temporary name and renamed into place only
/// when complete: a killed run leaves `.NAME.partial-PID`, never a folder that looks finished.
///
/// Creating one claims the name at once (an exclusive `flock` on `.NAME.lock` beside it, which the
/// kernel releases when the process dies, even by kill -9), so a second run to the same folder is
/// refused before it does any work. Staging folders whose lock nobody holds belong to dead runs and
/// are removed.
public final class RunFolder {
    public let finalURL: URL
    public let stagingURL: URL
    /// Staging folders of dead runs removed while claiming this one.
    public private(set) var removedStale: [String] = []
    private let lockURL: URL
    private var lockDescriptor: Int32 = -1
    private var committed = false

    public enum ClaimError: Error, CustomStringConvertible {
        case exists(path: String)
        case busy(path: String)

        public var description: String {
            switch self {
            case .exists(let path): return "\(path): already exists; choose another --out folder"
            case .busy(let path): return "\(path): another ensim run is writing this folder; wait for it or choose another --out folder"
            }
        }
    }

    /// Claims `finalURL` and creates its staging folder.
    /// - Throws: `ClaimError` when the folder exists or another live run holds it; `ReportingError.io` otherwise.
    public init(finalURL: URL) throws {
        let fm = FileManager.default
        self.finalURL = finalURL.standardizedFileURL
        let parent = self.finalURL.deletingLastPathComponent()
        let name = self.finalURL.lastPathComponent
        stagingURL = parent.appendingPathComponent(".\(name).partial-\(ProcessInfo.processInfo.processIdentifier)")
        lockURL = parent.appendingPathComponent(".\(name).lock")
        if fm.fileExists(atPath: self.finalURL.path) { throw ClaimError.exists(path: self.finalURL.path) }
        do {
            try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw ReportingError.io(path: parent.path, reason: "cannot create the results folder (\(error.localizedDescription))")
        }
        guard let descriptor = Self.lock(lockURL, create: true) else {
            if errno == EWOULDBLOCK { throw ClaimError.busy(path: self.finalURL.path) }
            throw ReportingError.io(path: lockURL.path, reason: "cannot create the folder's lock (\(String(cString: strerror(errno))))")
        }
        lockDescriptor = descriptor
        // Checked again under the lock: a run that held it may have just finished.
        if fm.fileExists(atPath: self.finalURL.path) {
            release()
            throw ClaimError.exists(path: self.finalURL.path)
        }
        removedStale = Self.removeStaleStaging(in: parent, claimed: name)
        do {
            try fm.createDirectory(at: stagingURL, withIntermediateDirectories: false)
        } catch {
            release()
            throw ReportingError.io(path: parent.path, reason: "cannot create the results folder (\(error.localizedDescription))")
        }
    }

    deinit { release() }

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

    /// Moves the finished folder to its final name and releases the claim.
    public func commit() throws {
        do {
            try FileManager.default.moveItem(at: stagingURL, to: finalURL)
            committed = true
        } catch {
            throw ReportingError.io(path: finalURL.path, reason: "cannot move the finished run into place (\(error.localizedDescription))")
        }
        release()
    }

    /// Removes the staging folder of an abandoned run and releases the claim.
    public func discard() {
        if !committed { try? FileManager.default.removeItem(at: stagingURL) }
        release()
    }

    private func release() {
        guard lockDescriptor >= 0 else { return }
        unlink(lockURL.path)
        close(lockDescriptor)
        lockDescriptor = -1
    }

    /// An exclusive, non-blocking lock on `url`, or nil (errno says why).
    static func lock(_ url: URL, create: Bool) -> Int32? {
        let descriptor = open(url.path, create ? (O_RDWR | O_CREAT | O_CLOEXEC) : (O_RDWR | O_CLOEXEC), 0o644)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let saved = errno
            close(descriptor)
            errno = saved
            return nil
        }
        return descriptor
    }

    /// Removes `.X.partial-PID` folders in `parent` whose run is dead (nobody holds `.X.lock`);
    /// those of `claimed` are ours to remove since we hold its lock.
    static func removeStaleStaging(in parent: URL, claimed: String) -> [String] {
        let fm = FileManager.default
        guard let entries = try? fm.contentsOfDirectory(atPath: parent.path) else { return [] }
        var removed: [String] = []
        for entry in entries.sorted() where entry.hasPrefix(".") {
            guard let range = entry.range(of: ".partial-", options: .backwards) else { continue }
            let name = String(entry[entry.index(after: entry.startIndex)..<range.lowerBound])
            let staging = parent.appendingPathComponent(entry)
            if name == claimed {
                if (try? fm.removeItem(at: staging)) != nil { removed.append(staging.path) }
                continue
            }
            let lockURL = parent.appendingPathComponent(".\(name).lock")
            let exists = fm.fileExists(atPath: lockURL.path)
            let descriptor = exists ? lock(lockURL, create: false) : nil
            guard !exists || descriptor != nil else { continue }  // a live run holds it
            if (try? fm.removeItem(at: staging)) != nil { removed.append(staging.path) }
            if let descriptor {
                unlink(lockURL.path)
                close(descriptor)
            }
        }
        return removed
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
