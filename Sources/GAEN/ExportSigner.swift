import Crypto
import Foundation

/// Private ECDSA P-256 key a backend signs export files with.
public struct ExportSigningKey: Sendable {
    public let privateKey: P256.Signing.PrivateKey

    /// A new random key.
    public init() { privateKey = P256.Signing.PrivateKey() }

    public init(privateKey: P256.Signing.PrivateKey) { self.privateKey = privateKey }

    /// Accepts PKCS#8 ("PRIVATE KEY") and SEC1 ("EC PRIVATE KEY") PEM.
    public init(pemRepresentation pem: String) throws(ExportFileError) {
        do { privateKey = try P256.Signing.PrivateKey(pemRepresentation: pem) } catch {
            throw .invalidPEM("not a P-256 private key (\(error))")
        }
    }

    /// PKCS#8 PEM.
    public var pemRepresentation: String { privateKey.pemRepresentation }

    public var verificationKey: ExportVerificationKey { ExportVerificationKey(publicKey: privateKey.publicKey) }

    /// ECDSA P-256 over SHA-256 of `message`, DER encoded (what export.sig carries). The nonce
    /// follows RFC 6979, so equal key and message give byte-identical signatures.
    public func signature(for message: Data) throws -> Data {
        let signature = DeterministicECDSA.sign(message: message, privateKey: Array(privateKey.rawRepresentation))
        let raw: [UInt8] = signature.r + signature.s
        return try P256.Signing.ECDSASignature(rawRepresentation: raw).derRepresentation
    }
}

/// Public key an app verifies export files with.
public struct ExportVerificationKey: Sendable {
    public let publicKey: P256.Signing.PublicKey

    public init(publicKey: P256.Signing.PublicKey) { self.publicKey = publicKey }

    /// SubjectPublicKeyInfo ("PUBLIC KEY") PEM.
    public init(pemRepresentation pem: String) throws(ExportFileError) {
        do { publicKey = try P256.Signing.PublicKey(pemRepresentation: pem) } catch {
            throw .invalidPEM("not a P-256 public key (\(error))")
        }
    }

    public var pemRepresentation: String { publicKey.pemRepresentation }

    /// Checks a DER ECDSA signature over SHA-256 of `message`.
    public func isValidSignature(_ derSignature: Data, for message: Data) throws(ExportFileError) -> Bool {
        let signature: P256.Signing.ECDSASignature
        do { signature = try P256.Signing.ECDSASignature(derRepresentation: derSignature) } catch {
            throw .malformedSignature
        }
        return publicKey.isValidSignature(signature, for: message)
    }
}
