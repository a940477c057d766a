import Foundation
import SwiftProtobuf

/// Report type of a diagnosis key (TemporaryExposureKey.ReportType in the export proto).
public enum ReportType: Int32, Sendable, CaseIterable {
    case unknown = 0
    case confirmedTest = 1
    case confirmedClinicalDiagnosis = 2
    case selfReport = 3
    case recursive = 4
    case revoked = 5
}

/// A key as published by a backend: the TEK plus the per-key fields of the export.
/// Optional fields are absent from the protobuf when nil.
public struct DiagnosisKey: Hashable, Sendable {
    /// GAEN v1's transmission risk levels (0 unused, 1…8 as apps set them).
    public static let transmissionRiskLevels: ClosedRange<Int32> = 0...8
    /// Days since onset of symptoms as exports carry them (v1.5+; Google's reference server accepts ±14).
    public static let daysSinceOnsetRange: ClosedRange<Int32> = -14...14

    public var temporaryExposureKey: TemporaryExposureKey
    public var transmissionRiskLevel: Int32?
    public var reportType: ReportType?
    public var daysSinceOnsetOfSymptoms: Int32?

    public init(_ temporaryExposureKey: TemporaryExposureKey, transmissionRiskLevel: Int32? = nil,
                reportType: ReportType? = nil, daysSinceOnsetOfSymptoms: Int32? = nil) {
        self.temporaryExposureKey = temporaryExposureKey
        self.transmissionRiskLevel = transmissionRiskLevel
        self.reportType = reportType
        self.daysSinceOnsetOfSymptoms = daysSinceOnsetOfSymptoms
    }
}

/// Identifies the signing key; app and backend agree on these out of band.
public struct SignatureInfo: Hashable, Sendable {
    /// OID of ECDSA with SHA-256, the algorithm ENSim signs and verifies.
    public static let ecdsaP256SHA256OID = "1.2.840.10045.4.3.2"

    public var verificationKeyVersion: String
    public var verificationKeyID: String
    public var signatureAlgorithm: String

    public init(verificationKeyVersion: String = "v1", verificationKeyID: String,
                signatureAlgorithm: String = SignatureInfo.ecdsaP256SHA256OID) {
        self.verificationKeyVersion = verificationKeyVersion
        self.verificationKeyID = verificationKeyID
        self.signatureAlgorithm = signatureAlgorithm
    }
}

/// The content of export.bin: batch fields and keys.
public struct KeyExport: Hashable, Sendable {
    /// Window of server arrival times of the keys, UTC seconds.
    public var startTimestamp: UInt64
    public var endTimestamp: UInt64
    public var region: String
    /// 1-based number of this file within its batch, and the batch's file count.
    public var batchNumber: Int32
    public var batchSize: Int32
    public var signatureInfos: [SignatureInfo]
    public var keys: [DiagnosisKey]
    public var revisedKeys: [DiagnosisKey]

    public init(startTimestamp: UInt64, endTimestamp: UInt64, region: String, batchNumber: Int32 = 1,
                batchSize: Int32 = 1, signatureInfos: [SignatureInfo] = [], keys: [DiagnosisKey],
                revisedKeys: [DiagnosisKey] = []) {
        self.startTimestamp = startTimestamp
        self.endTimestamp = endTimestamp
        self.region = region
        self.batchNumber = batchNumber
        self.batchSize = batchSize
        self.signatureInfos = signatureInfos
        self.keys = keys
        self.revisedKeys = revisedKeys
    }
}

/// export.bin: a 16-byte header, then the TemporaryExposureKeyExport protobuf.
public enum ExportBinary {
    /// "EK Export v1" padded with spaces to 16 bytes.
    public static let header: [UInt8] = Array("EK Export v1    ".utf8)
    public static let binEntryName = "export.bin"
    public static let signatureEntryName = "export.sig"

    public static func encode(_ export: KeyExport) throws -> Data {
        var message = ProtoTemporaryExposureKeyExport()
        message.startTimestamp = export.startTimestamp
        message.endTimestamp = export.endTimestamp
        message.region = export.region
        message.batchNum = export.batchNumber
        message.batchSize = export.batchSize
        message.signatureInfos = export.signatureInfos.map(\.proto)
        message.keys = export.keys.map(\.proto)
        message.revisedKeys = export.revisedKeys.map(\.proto)
        var data = Data(header)
        data.append(try message.serializedData())
        return data
    }

    /// Checks the header, decodes the protobuf and validates every key.
    public static func decode(_ data: Data) throws(ExportFileError) -> KeyExport {
        let found = Array(data.prefix(header.count))
        guard found == header else { throw .wrongHeader(found: found) }
        let message: ProtoTemporaryExposureKeyExport
        do {
            message = try ProtoTemporaryExposureKeyExport(serializedBytes: Array(data.dropFirst(header.count)))
        } catch {
            throw .malformedExport(String(describing: error))
        }
        // Unknown fields are allowed (newer servers add some); everything ENSim reads must be valid.
        var keys: [DiagnosisKey] = []
        keys.reserveCapacity(message.keys.count)
        for (index, key) in message.keys.enumerated() {
            keys.append(try DiagnosisKey(proto: key, index: index))
        }
        var revised: [DiagnosisKey] = []
        for (index, key) in message.revisedKeys.enumerated() {
            revised.append(try DiagnosisKey(proto: key, index: message.keys.count + index))
        }
        return KeyExport(startTimestamp: message.startTimestamp, endTimestamp: message.endTimestamp,
                         region: message.region, batchNumber: message.batchNum, batchSize: message.batchSize,
                         signatureInfos: message.signatureInfos.map(SignatureInfo.init(proto:)),
                         keys: keys, revisedKeys: revised)
    }
}

extension SignatureInfo {
    var proto: ProtoSignatureInfo {
        var info = ProtoSignatureInfo()
        info.verificationKeyVersion = verificationKeyVersion
        info.verificationKeyID = verificationKeyID
        info.signatureAlgorithm = signatureAlgorithm
        return info
    }

    init(proto: ProtoSignatureInfo) {
        self.init(verificationKeyVersion: proto.verificationKeyVersion, verificationKeyID: proto.verificationKeyID,
                  signatureAlgorithm: proto.signatureAlgorithm)
    }
}

extension DiagnosisKey {
    var proto: ProtoTemporaryExposureKey {
        var key = ProtoTemporaryExposureKey()
        key.keyData = Data(temporaryExposureKey.keyData.bytes)
        key.rollingStartIntervalNumber = Int32(bitPattern: temporaryExposureKey.rollingStartIntervalNumber.rawValue)
        key.rollingPeriod = Int32(temporaryExposureKey.rollingPeriod)
        if let transmissionRiskLevel { key.transmissionRiskLevel = transmissionRiskLevel }
        if let reportType { key.reportType = ProtoTemporaryExposureKey.ReportType(rawValue: Int(reportType.rawValue)) ?? .unknown }
        if let daysSinceOnsetOfSymptoms { key.daysSinceOnsetOfSymptoms = daysSinceOnsetOfSymptoms }
        return key
    }

    init(proto key: ProtoTemporaryExposureKey, index: Int) throws(ExportFileError) {
        guard key.hasKeyData else { throw .missingKeyField(index: index, field: "key_data") }
        guard let keyData = Bytes16(bytes: key.keyData) else {
            throw .invalidKeyLength(index: index, length: key.keyData.count)
        }
        guard key.hasRollingStartIntervalNumber else {
            throw .missingKeyField(index: index, field: "rolling_start_interval_number")
        }
        // Absent rolling_period means the proto default, 144.
        guard key.rollingPeriod >= 1, key.rollingPeriod <= Int32(TemporaryExposureKey.defaultRollingPeriod) else {
            throw .invalidRollingPeriod(index: index, value: key.rollingPeriod)
        }
        let tek = try! TemporaryExposureKey(
            keyData: keyData,
            rollingStartIntervalNumber: ENIntervalNumber(UInt32(bitPattern: key.rollingStartIntervalNumber)),
            rollingPeriod: UInt32(key.rollingPeriod))
        self.init(tek,
                  transmissionRiskLevel: key.hasTransmissionRiskLevel ? key.transmissionRiskLevel : nil,
                  reportType: key.hasReportType ? ReportType(rawValue: Int32(key.reportType.rawValue)) ?? .unknown : nil,
                  daysSinceOnsetOfSymptoms: key.hasDaysSinceOnsetOfSymptoms ? key.daysSinceOnsetOfSymptoms : nil)
    }
}
