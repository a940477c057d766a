import EventEngine

/// Declarations binding a key to the property of `ScenarioSettings` that holds its value.
extension Field {
    typealias Path<T> = WritableKeyPath<ScenarioSettings, T> & Sendable

    /// An integer key; `scale` converts the file's unit to the model's (seconds → milliseconds: 1000).
    static func integer<T: BinaryInteger & Sendable>(_ name: String, _ path: Path<T>, range: ClosedRange<Int64>, scale: Int64 = 1,
                                                     unit: String? = nil, doc: String) -> Field {
        integer(name, range: range, unit: unit, doc: doc,
                get: { Int64(clamping: $0[keyPath: path]) / scale },
                set: { s, x in
                    let (scaled, overflow) = x.multipliedReportingOverflow(by: scale)
                    s[keyPath: path] = T(clamping: overflow ? (x < 0 ? Int64.min : Int64.max) : scaled)
                })
    }

    static func integer(_ name: String, range: ClosedRange<Int64>, unit: String? = nil, doc: String,
                        get: @escaping @Sendable (ScenarioSettings) -> Int64,
                        set: @escaping @Sendable (inout ScenarioSettings, Int64) -> Void) -> Field {
        Field(name, .integer(range: range), unit: unit, doc: doc, slot: Slot(read: { .integer(get($0)) }, write: { s, v in
            if let x = v.intValue { set(&s, x) }
        }))
    }

    static func number(_ name: String, _ path: Path<Double>, range: ClosedRange<Double>, unit: String? = nil, doc: String) -> Field {
        number(name, range: range, unit: unit, doc: doc, get: { $0[keyPath: path] }, set: { $0[keyPath: path] = $1 })
    }

    static func number(_ name: String, range: ClosedRange<Double>, unit: String? = nil, doc: String,
                       get: @escaping @Sendable (ScenarioSettings) -> Double,
                       set: @escaping @Sendable (inout ScenarioSettings, Double) -> Void) -> Field {
        Field(name, .number(range: range), unit: unit, doc: doc, slot: Slot(read: { .number(get($0)) }, write: { s, v in
            if let x = v.doubleValue { set(&s, x) }
        }))
    }

    /// One key per element of an array property (e.g. a value per contact layer).
    static func numbers(_ path: Path<[Double]>, keys: [(name: String, doc: String)], range: ClosedRange<Double>,
                        unit: String? = nil) -> [Field] {
        keys.enumerated().map { i, key in
            number(key.name, range: range, unit: unit, doc: key.doc, get: { $0[keyPath: path][i] }, set: { $0[keyPath: path][i] = $1 })
        }
    }

    /// A share or probability from 0 to 1.
    static func share(_ name: String, _ path: Path<Double>, _ doc: String) -> Field {
        number(name, path, range: 0...1, unit: "share", doc: doc)
    }

    static func boolean(_ name: String, _ path: Path<Bool>, doc: String) -> Field {
        Field(name, .boolean, doc: doc, slot: Slot(read: { .boolean($0[keyPath: path]) }, write: { s, v in
            if let b = v.boolValue { s[keyPath: path] = b }
        }))
    }

    static func text(_ name: String, form: TextForm = .path, doc: String, defaultNote: String? = nil,
                     get: @escaping @Sendable (ScenarioSettings) -> String,
                     set: @escaping @Sendable (inout ScenarioSettings, String) -> Void) -> Field {
        Field(name, .text(form), doc: doc, slot: Slot(read: { .text(get($0)) }, write: { s, v in
            if let t = v.textValue { set(&s, t) }
        }), defaultNote: defaultNote)
    }

    static func date(_ name: String, _ path: Path<CivilDate>, range: ClosedRange<CivilDate>, doc: String) -> Field {
        Field(name, .date(range: range), doc: doc, slot: Slot(read: { .text(CivilCalendar.isoDateString($0[keyPath: path])) }, write: { s, v in
            if let date = v.textValue.flatMap(CivilCalendar.parseISODate) { s[keyPath: path] = date }
        }))
    }

    static func choice<E>(_ name: String, _ path: Path<E>, doc: String) -> Field
    where E: RawRepresentable & CaseIterable & Sendable, E.RawValue == String {
        choice(name, E.self, doc: doc, get: { $0[keyPath: path] }, set: { $0[keyPath: path] = $1 })
    }

    static func choice<E>(_ name: String, _ type: E.Type, doc: String, get: @escaping @Sendable (ScenarioSettings) -> E,
                          set: @escaping @Sendable (inout ScenarioSettings, E) -> Void) -> Field
    where E: RawRepresentable & CaseIterable & Sendable, E.RawValue == String {
        Field(name, .choice(allowed: E.allCases.map(\.rawValue)), doc: doc, slot: Slot(read: { .text(get($0).rawValue) }, write: { s, v in
            if let e = v.textValue.flatMap(E.init(rawValue:)) { set(&s, e) }
        }))
    }

    static func section(_ name: String, _ fields: [Field], check: (@Sendable (ScenarioSettings) -> String?)? = nil, doc: String) -> Field {
        Field(name, .section(fields, check: check), doc: doc, slot: nil)
    }

    /// A block of shares, one key per element of `path`, that must sum to 1.
    static func shares(_ name: String, _ path: Path<[Double]>, keys: [(name: String, doc: String)], doc: String) -> Field {
        section(name, numbers(path, keys: keys, range: 0...1, unit: "share"),
                check: { sumsToOne($0[keyPath: path], names: keys.map(\.name)) }, doc: doc)
    }

    static func sumsToOne(_ shares: [Double], names: [String]) -> String? {
        let sum = shares.reduce(0, +)
        return abs(sum - 1) <= 1e-6 ? nil
            : "shares must sum to 1, got \(ValueTree.format((sum * 1e6).rounded() / 1e6)) (" + names.joined(separator: " + ") + ")"
    }
}
