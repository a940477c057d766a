import CLibCrypto

/// Derives many RPIs of one key at once: one AES key schedule, then all padded blocks
/// (which differ only in the interval number) through OpenSSL's AES-128-ECB as one batch.
///
/// This is the hot path of matching. swift-crypto only offers one block per call with a key
/// schedule each time, so this uses the system libcrypto (AES-NI where the CPU has it).
/// Not thread-safe: it reuses its cipher contexts and input buffer; use one per thread.
///
/// A key change and a block cost about five blocks (OpenSSL 3 looks parameters up by name on
/// every init: 118 against 24 ns, measured here), so identifiers and metadata each keep two
/// keyed contexts and key one again only for a key neither holds: the radio alternates between
/// the two phones of a contact, and an initiator meets one phone after another.
public final class BatchRPIDeriver {
    /// Room for a full day of intervals; larger requests grow the buffer once.
    public static let defaultCapacity = Int(TemporaryExposureKey.defaultRollingPeriod)

    // A deriver belongs to one thread, so its mutable state skips Swift's dynamic exclusivity
    // checks (each access would otherwise go through a thread-local access set).
    @exclusivity(unchecked) private var identifierContexts: KeyedContexts
    @exclusivity(unchecked) private var metadataContexts: KeyedContexts
    private let cipher: OpaquePointer
    @exclusivity(unchecked) private var input: UnsafeMutableBufferPointer<Bytes16>
    /// Intervals currently written into `input[0..<preparedCount]`; keys of one day share them.
    @exclusivity(unchecked) private var preparedFirstInterval: UInt32 = 0
    @exclusivity(unchecked) private var preparedCount = 0

    public init(capacity: Int = BatchRPIDeriver.defaultCapacity) throws(GAENError) {
        guard let cipher = EVP_CIPHER_fetch(nil, "AES-128-ECB", nil) else {
            throw .openSSL("EVP_CIPHER_fetch(AES-128-ECB) failed")
        }
        do {
            identifierContexts = try KeyedContexts(cipher: cipher)
        } catch {
            EVP_CIPHER_free(cipher)
            throw error
        }
        do {
            metadataContexts = try KeyedContexts(cipher: cipher)
        } catch {
            identifierContexts.free()
            EVP_CIPHER_free(cipher)
            throw error
        }
        self.cipher = cipher
        self.input = .allocate(capacity: max(1, capacity))
        input.initialize(repeating: RollingProximityIdentifierKey.paddedDataTemplate)
    }

    deinit {
        identifierContexts.free()
        metadataContexts.free()
        EVP_CIPHER_free(cipher)
        input.deallocate()
    }

    /// Writes the RPIs of `output.count` consecutive intervals from `firstInterval` into `output`.
    /// No allocation unless `output` is larger than every earlier request.
    public func derive(rpik: RollingProximityIdentifierKey, firstInterval: ENIntervalNumber,
                       into output: UnsafeMutableBufferPointer<RollingProximityIdentifier>) throws(GAENError) {
        let count = output.count
        if count == 0 { return }
        if count > input.count { grow(to: count) }

        if preparedCount < count || preparedFirstInterval != firstInterval.rawValue {
            prepareInput(firstInterval: firstInterval.rawValue, count: count)
        }

        let context = try identifierContexts.context(keyedWith: rpik.keyData)

        // RollingProximityIdentifier is one Bytes16: 16 bytes, stride 16, in byte order.
        let byteCount = count * MemoryLayout<Bytes16>.stride
        var written: Int32 = 0
        let inputBytes = UnsafeRawPointer(input.baseAddress!).assumingMemoryBound(to: UInt8.self)
        let status = UnsafeMutableRawPointer(output.baseAddress!).withMemoryRebound(to: UInt8.self, capacity: byteCount) {
            EVP_EncryptUpdate(context, $0, &written, inputBytes, Int32(byteCount))
        }
        guard status == 1, Int(written) == byteCount else {
            throw .openSSL("EVP_EncryptUpdate wrote \(written) of \(byteCount) bytes")
        }
    }

    /// The AEM of `metadata` broadcast with `identifier`: AES-CTR with IV = RPI over 4 bytes is
    /// the metadata XOR the first 4 bytes of AES(AEMK, RPI), so one ECB block with this
    /// deriver's metadata context replaces swift-crypto's allocating CTR call on the hot path.
    public func encrypt(_ metadata: BluetoothMetadata, identifier: RollingProximityIdentifier,
                        key: AssociatedEncryptedMetadataKey) throws(GAENError) -> AssociatedEncryptedMetadata {
        let metadataContext = try metadataContexts.context(keyedWith: key.keyData)
        var block = identifier.value
        var stream = Bytes16.zero
        var written: Int32 = 0
        let status = withUnsafeBytes(of: &block) { input in
            withUnsafeMutableBytes(of: &stream) { output in
                EVP_EncryptUpdate(metadataContext, output.baseAddress!.assumingMemoryBound(to: UInt8.self), &written,
                                  input.baseAddress!.assumingMemoryBound(to: UInt8.self), 16)
            }
        }
        guard status == 1, written == 16 else { throw .openSSL("EVP_EncryptUpdate wrote \(written) of 16 bytes") }
        // Both as big-endian numbers of their first four bytes, without an array each (two
        // allocations per advert): `word0` holds the keystream's bytes in memory order.
        let keystream = UInt32(truncatingIfNeeded: UInt64(bigEndian: stream.word0) >> 32)
        let plain = UInt32(metadata.versionByte) << 24 | UInt32(UInt8(bitPattern: metadata.transmitPowerDBm)) << 16
            | UInt32(metadata.reserved1) << 8 | UInt32(metadata.reserved2)
        return AssociatedEncryptedMetadata(rawValue: plain ^ keystream)
    }

    /// Writes all `tek.rollingPeriod` RPIs of `tek` (HKDF for the RPIK, then one batch) into
    /// the start of `output`, and returns how many it wrote.
    @discardableResult
    public func deriveAll(of tek: TemporaryExposureKey,
                          into output: UnsafeMutableBufferPointer<RollingProximityIdentifier>) throws(GAENError) -> Int {
        let count = Int(tek.rollingPeriod)
        guard output.count >= count else { throw .outputBufferTooSmall(needed: count, available: output.count) }
        try derive(rpik: tek.subKeys.identifierKey, firstInterval: tek.rollingStartIntervalNumber,
                   into: UnsafeMutableBufferPointer(rebasing: output[0..<count]))
        return count
    }

    /// Convenience for callers that want an array (allocates one array per call).
    public func identifiers(of tek: TemporaryExposureKey) throws(GAENError) -> [RollingProximityIdentifier] {
        let placeholder = RollingProximityIdentifier(.zero)
        var result = [RollingProximityIdentifier](repeating: placeholder, count: Int(tek.rollingPeriod))
        _ = try result.withUnsafeMutableBufferPointer { (buffer) throws(GAENError) in
            try deriveAll(of: tek, into: buffer)
        }
        return result
    }

    private func prepareInput(firstInterval: UInt32, count: Int) {
        var interval = firstInterval
        for index in 0..<count {
            // Only bytes 12…15 differ between blocks: ENIN, little endian.
            withUnsafeMutableBytes(of: &input[index].word1) { raw in
                raw.storeBytes(of: interval.littleEndian, toByteOffset: 4, as: UInt32.self)
            }
            interval &+= 1
        }
        preparedFirstInterval = firstInterval
        preparedCount = count
    }

    private func grow(to count: Int) {
        let bigger = UnsafeMutableBufferPointer<Bytes16>.allocate(capacity: count)
        bigger.initialize(repeating: RollingProximityIdentifierKey.paddedDataTemplate)
        input.deallocate()
        input = bigger
        preparedCount = 0
    }
}

/// Two AES-128-ECB contexts and the keys they hold; `context(keyedWith:)` keys the one used less
/// recently when neither holds the key asked for.
private struct KeyedContexts {
    private let first: OpaquePointer, second: OpaquePointer
    private var firstKey: Bytes16?, secondKey: Bytes16?
    private var firstIsRecent = false

    init(cipher: OpaquePointer) throws(GAENError) {
        guard let first = Self.make(cipher) else { throw .openSSL("EVP_EncryptInit_ex2(AES-128-ECB) failed") }
        guard let second = Self.make(cipher) else {
            EVP_CIPHER_CTX_free(first)
            throw .openSSL("EVP_EncryptInit_ex2(AES-128-ECB) failed")
        }
        (self.first, self.second) = (first, second)
    }

    private static func make(_ cipher: OpaquePointer) -> OpaquePointer? {
        guard let c = EVP_CIPHER_CTX_new() else { return nil }
        // Padding stays on: encryption's updates write every whole block, and only a final call
        // (never made) would add one. Turning it off made OpenSSL 3 set it again, by name, at
        // every key change: half of a key change's 240 ns.
        guard EVP_EncryptInit_ex2(c, cipher, nil, nil, nil) == 1 else {
            EVP_CIPHER_CTX_free(c)
            return nil
        }
        return c
    }

    func free() {
        EVP_CIPHER_CTX_free(first)
        EVP_CIPHER_CTX_free(second)
    }

    @inline(__always)
    mutating func context(keyedWith key: Bytes16) throws(GAENError) -> OpaquePointer {
        if firstKey == key { firstIsRecent = true; return first }
        if secondKey == key { firstIsRecent = false; return second }
        if firstIsRecent {
            secondKey = nil
            try Self.setKey(key, on: second)
            (secondKey, firstIsRecent) = (key, false)
            return second
        }
        firstKey = nil
        try Self.setKey(key, on: first)
        (firstKey, firstIsRecent) = (key, true)
        return first
    }

    private static func setKey(_ key: Bytes16, on context: OpaquePointer) throws(GAENError) {
        var data = key
        let keyed = withUnsafeBytes(of: &data) { raw in
            // Cipher nil: keep the fetched cipher and only run the new key schedule.
            EVP_EncryptInit_ex2(context, nil, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil)
        }
        guard keyed == 1 else { throw .openSSL("EVP_EncryptInit_ex2 (set key) failed") }
    }
}
