import Foundation

extension JSONValue {
    /// Through the value's own `Encodable` conformance, so a type that is also read back with
    /// `JSONDecoder` (a photo sidecar, the budget cache) keeps one shape for both. Dates are written as
    /// ISO 8601 text, which `JSONDecoder`'s `.iso8601` strategy reads back.
    public init(encoding value: some Encodable) throws {
        let slot = Slot()
        try slot.store(value, codingPath: [])
        self = slot.value
    }
}

/// Where one encoded value goes: a plain value, or the fields or items its containers add. A class,
/// because containers are structs handed out by value and must all add to the same place.
private final class Slot {
    var plain: JSONValue = .null
    var fields: [String: Slot]?
    var items: [Slot]?

    var value: JSONValue {
        if let fields { return .object(fields.mapValues(\.value)) }
        if let items { return .array(items.map(\.value)) }
        return plain
    }

    func store(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        switch value {
        case let date as Date: plain = .string(ISO8601DateFormatter().string(from: date))
        case let url as URL: plain = .string(url.absoluteString)
        default: try value.encode(to: SlotEncoder(slot: self, codingPath: codingPath))
        }
    }
}

private struct SlotEncoder: Encoder {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if slot.fields == nil { slot.fields = [:] }
        return KeyedEncodingContainer(Fields(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if slot.items == nil { slot.items = [] }
        return Items(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        Plain(slot: slot, codingPath: codingPath)
    }
}

/// The one container that writes numbers, strings and booleans: the keyed and unkeyed ones hand
/// every value, these included, to a new slot of their own.
private struct Plain: SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.plain = .null }
    mutating func encode(_ value: Bool) throws { slot.plain = .bool(value) }
    mutating func encode(_ value: String) throws { slot.plain = .string(value) }
    mutating func encode(_ value: Double) throws { slot.plain = .number(value) }
    // Through its shortest text, so 0.1 as a Float is written 0.1, not 0.10000000149011612.
    mutating func encode(_ value: Float) throws { slot.plain = .number(Double("\(value)") ?? Double(value)) }
    mutating func encode(_ value: Int) throws { slot.plain = .integer(value) }
    mutating func encode(_ value: Int8) throws { slot.plain = .integer(Int(value)) }
    mutating func encode(_ value: Int16) throws { slot.plain = .integer(Int(value)) }
    mutating func encode(_ value: Int32) throws { slot.plain = .integer(Int(value)) }
    mutating func encode(_ value: Int64) throws { slot.plain = .integer(Int(value)) }
    mutating func encode(_ value: UInt) throws { slot.plain = Int(exactly: value).map(JSONValue.integer) ?? .number(Double(value)) }
    mutating func encode(_ value: UInt8) throws { slot.plain = .integer(Int(value)) }
    mutating func encode(_ value: UInt16) throws { slot.plain = .integer(Int(value)) }
    mutating func encode(_ value: UInt32) throws { slot.plain = .integer(Int(value)) }
    mutating func encode(_ value: UInt64) throws { slot.plain = Int(exactly: value).map(JSONValue.integer) ?? .number(Double(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try slot.store(value, codingPath: codingPath) }
}

private struct Fields<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: Slot
    let codingPath: [any CodingKey]

    private func slot(named name: String) -> Slot {
        let child = Slot()
        slot.fields?[name] = child
        return child
    }

    private func slot(for key: Key) -> Slot { slot(named: key.stringValue) }

    private func put(_ value: some Encodable, forKey key: Key) throws {
        try slot(for: key).store(value, codingPath: codingPath + [key])
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try put(value, forKey: key) }

    mutating func encodeNil(forKey key: Key) throws { _ = slot(for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(value, forKey: key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        SlotEncoder(slot: slot(for: key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        SlotEncoder(slot: slot(for: key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        SlotEncoder(slot: slot(named: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        SlotEncoder(slot: slot(for: key), codingPath: codingPath + [key])
    }
}

private struct Items: UnkeyedEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]
    var count: Int { slot.items?.count ?? 0 }

    private func nextSlot() -> Slot {
        let child = Slot()
        slot.items?.append(child)
        return child
    }

    private func put(_ value: some Encodable) throws { try nextSlot().store(value, codingPath: codingPath) }

    mutating func encode<T: Encodable>(_ value: T) throws { try put(value) }
    mutating func encodeNil() throws { _ = nextSlot() }
    mutating func encode(_ value: Bool) throws { try put(value) }
    mutating func encode(_ value: String) throws { try put(value) }
    mutating func encode(_ value: Double) throws { try put(value) }
    mutating func encode(_ value: Float) throws { try put(value) }
    mutating func encode(_ value: Int) throws { try put(value) }
    mutating func encode(_ value: Int8) throws { try put(value) }
    mutating func encode(_ value: Int16) throws { try put(value) }
    mutating func encode(_ value: Int32) throws { try put(value) }
    mutating func encode(_ value: Int64) throws { try put(value) }
    mutating func encode(_ value: UInt) throws { try put(value) }
    mutating func encode(_ value: UInt8) throws { try put(value) }
    mutating func encode(_ value: UInt16) throws { try put(value) }
    mutating func encode(_ value: UInt32) throws { try put(value) }
    mutating func encode(_ value: UInt64) throws { try put(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        SlotEncoder(slot: nextSlot(), codingPath: codingPath).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        SlotEncoder(slot: nextSlot(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        SlotEncoder(slot: nextSlot(), codingPath: codingPath)
    }
}
