import GSL

/// Age groups: app adoption, schools and workplaces depend on them.
public enum AgeGroup: Int, CaseIterable, Sendable {
    case child, adult, senior

    public var name: String { ["children", "adults", "seniors"][rawValue] }
}

public enum OperatingSystem: Int, CaseIterable, Sendable {
    case android, iOS

    public var name: String { self == .iOS ? "ios" : "android" }
}

/// Who lives in the simulated country: age, household, and whether and how they run the app.
public struct PopulationParameters: Sendable, Equatable {
    public var size: Int
    /// Shares of children, adults, seniors (sum 1).
    public var ageShares: [Double]
    /// Overall share of people running the app; used unless `adoptionByAge` is set.
    public var appAdoption: Double
    /// Adoption per age group (children, adults, seniors), or nil to use `appAdoption` for everyone.
    public var adoptionByAge: [Double]?
    /// Share of app users on iOS.
    public var iOSShare: Double

    public init(size: Int, ageShares: [Double] = [0.16, 0.61, 0.23], appAdoption: Double,
                adoptionByAge: [Double]? = nil, iOSShare: Double = 0.3) {
        self.size = size
        self.ageShares = ageShares
        self.appAdoption = appAdoption
        self.adoptionByAge = adoptionByAge
        self.iOSShare = iOSShare
    }
}

/// The people, as parallel arrays indexed by person (a struct per person would cost
/// more memory at country scale). Each person's attributes come from their own stream.
public final class Population: Sendable {
    public let size: Int
    public let age: [AgeGroup]
    /// App phone index of each person, or -1 without the app.
    public let phoneOf: [Int32]
    /// Person of each app phone, ascending.
    public let owners: [Int32]
    /// Operating system of each app phone.
    public let phoneOS: [OperatingSystem]

    public init(_ p: PopulationParameters, seed: UInt64) {
        size = p.size
        let ages = try! DiscreteDistribution(weights: p.ageShares)
        let stream = RandomStream(seed: seed, stream: "person", generator: .taus2)
        var age = [AgeGroup](repeating: .adult, count: p.size)
        var phoneOf = [Int32](repeating: -1, count: p.size)
        var owners: [Int32] = []
        var os: [OperatingSystem] = []
        for person in 0..<p.size {
            stream.reseed(StreamKey(seed: seed, stream: "person", index: UInt64(person)))
            let group = AgeGroup(rawValue: ages.sample(stream))!
            age[person] = group
            let adoption = p.adoptionByAge?[group.rawValue] ?? p.appAdoption
            // Draw both every time so one parameter never shifts another's draws.
            let adopts = stream.uniform() < adoption
            let iOS = stream.uniform() < p.iOSShare
            if adopts {
                phoneOf[person] = Int32(owners.count)
                owners.append(Int32(person))
                os.append(iOS ? .iOS : .android)
            }
        }
        self.age = age
        self.phoneOf = phoneOf
        self.owners = owners
        self.phoneOS = os
    }

    public var appUsers: Int { owners.count }

    /// Bytes held, for the memory report.
    public var bytes: Int { size * 5 + owners.count * 5 }

    public func people(in group: AgeGroup) -> Int { age.lazy.filter { $0 == group }.count }
}
