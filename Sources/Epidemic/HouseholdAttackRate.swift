import EventEngine
import SimulationCore
import World

/// summary.json → `epidemic.household_secondary_attack_rate`: the share of household members
/// infected by their household's first case, the quantity household transmission studies
/// estimate (Madewell et al. 2020, JAMA Netw Open 3:e2031756: 16.6%, 95% CI 14.0–19.3%; 18.9%
/// in their 2021 update) and the published figure the household factor is calibrated to. The
/// simulation knows who infected whom, so infections from outside the household during the
/// follow-up (which studies cannot always exclude) are not counted. Households whose first case
/// could still infect after the run's end are left out. Members of one household are not
/// independent, so no interval is given; replicates (a sweep) give one.
public struct HouseholdAttackRate: Equatable, Sendable, Encodable {
    public var households: Int
    public var contacts: Int
    public var secondary: Int
    public var rate: Double?

    init(network: ContactNetwork, infectedAt: [SimTime], recoveredAt: [SimTime], infector: [Int32], runEnd: SimTime) {
        var households = 0, contacts = 0, secondary = 0
        for h in 0..<network.householdCount {
            let members = Int(network.householdStart[h])..<Int(network.householdStart[h + 1])
            guard members.count > 1 else { continue }
            let first = members.min { infectedAt[$0] < infectedAt[$1] }!
            let t = infectedAt[first]
            guard t != .max, recoveredAt[first] <= runEnd else { continue }
            households += 1
            contacts += members.count - 1
            secondary += members.filter { infector[$0] == Int32(first) }.count
        }
        self.households = households
        self.contacts = contacts
        self.secondary = secondary
        rate = contacts > 0 ? Double(secondary) / Double(contacts) : nil
    }

    package enum CodingKeys: String, CodingKey { case households, contacts, secondary, rate }

    /// `rate` reads "n/a" without households to count (a short run), like other absent estimates.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(households, forKey: .households)
        try c.encode(contacts, forKey: .contacts)
        try c.encode(secondary, forKey: .secondary)
        if let rate { try c.encode(rate, forKey: .rate) } else { try c.encode(Quantile.notAvailable, forKey: .rate) }
    }
}
