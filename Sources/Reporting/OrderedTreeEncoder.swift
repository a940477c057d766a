import HealthBackend
import Scenario
/// Turns any `Encodable` into the report tree: object keys in the order they are encoded,
/// integers and floating-point numbers kept apart, and optionals written with
/// `encodeIfPresent` left out when nil.
public struct OrderedTreeEncoder {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> ValueTree {
        let root = TreeNode()
        try value.encode(to: TreeEncoder(node: root, codingPath: []))
        guard let tree = root.tree else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(T.self) encoded no value"))
        }
        return tree
    }
}

/// A place in the tree being built; containers of one encoder share it (an encoder asked twice
/// for a keyed container adds to the same object).
final class TreeNode {
    private enum Content {
        case unset
        case leaf(ValueTree)
        case object(keys: [String], children: [TreeNode])
        case array([TreeNode])
    }

    private var content = Content.unset

    /// The value built here; nil when nothing was encoded.
    var tree: ValueTree? {
        switch content {
        case .unset: nil
        case .leaf(let value): value
        case .object(let keys, let children): .section(zip(keys, children).map { ($0, $1.tree ?? .section([])) })
        case .array(let children): .array(children.map { $0.tree ?? .section([]) })
        }
    }

    func set(_ value: ValueTree) { content = .leaf(value) }

    func makeObject() {
        switch content {
        case .unset, .leaf: content = .object(keys: [], children: [])
        case .object: break
        case .array: preconditionFailure("a keyed container where an unkeyed one was made")
        }
    }

    func makeArray() {
        switch content {
        case .unset, .leaf: content = .array([])
        case .array: break
        case .object: preconditionFailure("an unkeyed container where a keyed one was made")
        }
    }

    /// The child under `key`, new (a key encoded twice keeps its first place, its last value).
    func child(_ key: String) -> TreeNode {
        makeObject()
        guard case .object(var keys, var children) = content else { preconditionFailure("not an object") }
        let node = TreeNode()
        if let i = keys.firstIndex(of: key) {
            children[i] = node
        } else {
            keys.append(key)
            children.append(node)
        }
        content = .object(keys: keys, children: children)
        return node
    }

    func appended() -> TreeNode {
        makeArray()
        guard case .array(var children) = content else { preconditionFailure("not an array") }
        let node = TreeNode()
        children.append(node)
        content = .array(children)
        return node
    }

    var count: Int {
        switch content {
        case .array(let children): children.count
        case .object(let keys, _): keys.count
        default: 0
        }
    }
}

struct TreeEncoder: Encoder {
    let node: TreeNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedTreeContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedTreeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleTreeContainer(node: node, codingPath: codingPath)
    }
}

/// Integers of every width become `.integer`; one that does not fit in Int64 is an error.
private func integer<I: BinaryInteger>(_ v: I) throws -> ValueTree {
    guard let n = Int64(exactly: v) else {
        throw EncodingError.invalidValue(v, .init(codingPath: [], debugDescription: "\(v) does not fit in a 64-bit integer"))
    }
    return .integer(n)
}

struct KeyedTreeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: TreeNode
    let codingPath: [any CodingKey]

    private func child(_ key: Key) -> TreeNode { node.child(key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws { child(key).set(.null) }
    mutating func encode(_ v: Bool, forKey key: Key) throws { child(key).set(.boolean(v)) }
    mutating func encode(_ v: String, forKey key: Key) throws { child(key).set(.text(v)) }
    mutating func encode(_ v: Double, forKey key: Key) throws { child(key).set(.number(v)) }
    mutating func encode(_ v: Float, forKey key: Key) throws { child(key).set(.number(Double(v))) }
    mutating func encode(_ v: Int, forKey key: Key) throws { child(key).set(try integer(v)) }
    mutating func encode(_ v: Int8, forKey key: Key) throws { child(key).set(try integer(v)) }
    mutating func encode(_ v: Int16, forKey key: Key) throws { child(key).set(try integer(v)) }
    mutating func encode(_ v: Int32, forKey key: Key) throws { child(key).set(try integer(v)) }
    mutating func encode(_ v: Int64, forKey key: Key) throws { child(key).set(try integer(v)) }
    mutating func encode(_ v: UInt, forKey key: Key) throws { child(key).set(try integer(v)) }
    mutating func encode(_ v: UInt8, forKey key: Key) throws { child(key).set(try integer(v)) }
    mutating func encode(_ v: UInt16, forKey key: Key) throws { child(key).set(try integer(v)) }
    mutating func encode(_ v: UInt32, forKey key: Key) throws { child(key).set(try integer(v)) }
    mutating func encode(_ v: UInt64, forKey key: Key) throws { child(key).set(try integer(v)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try value.encode(to: TreeEncoder(node: child(key), codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        TreeEncoder(node: child(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        TreeEncoder(node: child(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.child("super"), codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { TreeEncoder(node: child(key), codingPath: codingPath + [key]) }
}

struct UnkeyedTreeContainer: UnkeyedEncodingContainer {
    let node: TreeNode
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    private func appended() -> TreeNode { node.appended() }

    mutating func encodeNil() throws { appended().set(.null) }
    mutating func encode(_ v: Bool) throws { appended().set(.boolean(v)) }
    mutating func encode(_ v: String) throws { appended().set(.text(v)) }
    mutating func encode(_ v: Double) throws { appended().set(.number(v)) }
    mutating func encode(_ v: Float) throws { appended().set(.number(Double(v))) }
    mutating func encode(_ v: Int) throws { appended().set(try integer(v)) }
    mutating func encode(_ v: Int8) throws { appended().set(try integer(v)) }
    mutating func encode(_ v: Int16) throws { appended().set(try integer(v)) }
    mutating func encode(_ v: Int32) throws { appended().set(try integer(v)) }
    mutating func encode(_ v: Int64) throws { appended().set(try integer(v)) }
    mutating func encode(_ v: UInt) throws { appended().set(try integer(v)) }
    mutating func encode(_ v: UInt8) throws { appended().set(try integer(v)) }
    mutating func encode(_ v: UInt16) throws { appended().set(try integer(v)) }
    mutating func encode(_ v: UInt32) throws { appended().set(try integer(v)) }
    mutating func encode(_ v: UInt64) throws { appended().set(try integer(v)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try value.encode(to: TreeEncoder(node: appended(), codingPath: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        TreeEncoder(node: appended(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        TreeEncoder(node: appended(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(node: appended(), codingPath: codingPath) }
}

struct SingleTreeContainer: SingleValueEncodingContainer {
    let node: TreeNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.set(.null) }
    mutating func encode(_ v: Bool) throws { node.set(.boolean(v)) }
    mutating func encode(_ v: String) throws { node.set(.text(v)) }
    mutating func encode(_ v: Double) throws { node.set(.number(v)) }
    mutating func encode(_ v: Float) throws { node.set(.number(Double(v))) }
    mutating func encode(_ v: Int) throws { node.set(try integer(v)) }
    mutating func encode(_ v: Int8) throws { node.set(try integer(v)) }
    mutating func encode(_ v: Int16) throws { node.set(try integer(v)) }
    mutating func encode(_ v: Int32) throws { node.set(try integer(v)) }
    mutating func encode(_ v: Int64) throws { node.set(try integer(v)) }
    mutating func encode(_ v: UInt) throws { node.set(try integer(v)) }
    mutating func encode(_ v: UInt8) throws { node.set(try integer(v)) }
    mutating func encode(_ v: UInt16) throws { node.set(try integer(v)) }
    mutating func encode(_ v: UInt32) throws { node.set(try integer(v)) }
    mutating func encode(_ v: UInt64) throws { node.set(try integer(v)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try value.encode(to: TreeEncoder(node: node, codingPath: codingPath))
    }
}
