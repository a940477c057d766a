import CPrefetch
import EventEngine
import Foundation
import GSL

/// Who can meet whom: households, workplaces, school classes and public-transport riders,
/// built once per run; and the daily contacts each person initiates.
///
/// Every person draws their day's contacts from their own streams, one per layer, so a
/// person's contacts never depend on other people, on event order, on thread count, or on
/// parameters of other layers. Counts are per initiator: each contact involves two people,
/// so the per-person means in `ContactParameters` are halved for initiators.
public final class ContactNetwork: Sendable {
    public let parameters: ContactParameters
    package let seed: UInt64
    package let size: Int
    /// Households are contiguous ranges of people: `householdStart[householdOf[p]] ..< householdEnd`.
    package let householdOf: [Int32]
    package let householdStart: [Int32]
    package let workplace: Groups
    package let schoolClass: Groups
    /// People riding public transport on weekdays, and whether each person does.
    package let riders: [Int32]
    package let isRider: [Bool]
    /// Each layer's stream name hashed once (a person reseeds per layer and day).
    private let layerFamilies: [StreamFamily]
    /// Each layer's log-normal locations (durations, distances), computed once rather than per contact.
    private let layerShapes: [ContactShape]

    public init(population: Population, parameters: ContactParameters, seed: UInt64) {
        self.parameters = parameters
        self.seed = seed
        size = population.size
        let rng = RandomStream(seed: seed, stream: "network")

        // Households: consecutive people, sizes drawn from the size distribution.
        let sizes = try! DiscreteDistribution(weights: parameters.householdSizeShares)
        var householdOf = [Int32](repeating: 0, count: size)
        var starts: [Int32] = []
        var person = 0
        while person < size {
            let members = min(sizes.sample(rng) + 1, size - person)
            starts.append(Int32(person))
            for p in person..<(person + members) { householdOf[p] = Int32(starts.count - 1) }
            person += members
        }
        starts.append(Int32(size))
        self.householdOf = householdOf
        householdStart = starts

        // Workplaces and classes: shuffled so that household members are not colleagues.
        var workers = (0..<size).filter { population.age[$0] == .adult && rng.bernoulli(p: parameters.employedShare) }.map(Int32.init)
        rng.shuffle(&workers)
        workplace = Groups(members: workers, size: size) { rng.poisson(mean: max(0, parameters.workplaceSizeMean - 2)) + 2 }
        var pupils = (0..<size).filter { population.age[$0] == .child }.map(Int32.init)
        rng.shuffle(&pupils)
        schoolClass = Groups(members: pupils, size: size) { parameters.classSize }

        var isRider = [Bool](repeating: false, count: size)
        var riders: [Int32] = []
        for p in 0..<size where population.age[p] != .senior && rng.bernoulli(p: parameters.transportShare) {
            isRider[p] = true
            riders.append(Int32(p))
        }
        self.riders = riders
        self.isRider = isRider
        layerFamilies = ContactLayer.allCases.map { ContactMaker.family(seed: seed, layer: $0) }
        layerShapes = ContactLayer.allCases.map { ContactShape(layer: $0, parameters: parameters) }
    }

    public var householdCount: Int { householdStart.count - 1 }

    /// Bytes held, for the memory report.
    public var bytes: Int {
        (householdOf.count + householdStart.count + riders.count) * 4 + isRider.count + workplace.bytes + schoolClass.bytes
    }

    /// Calls `emit` for every contact `person` initiates on the day starting at `midnight`.
    /// `stream` and `segments` are the caller's scratch space (one per thread; `segments` is
    /// made `ContactMaker.mostSegments` long). `prefetch`, if given, is the base of a per-person
    /// array `emit` reads for the other person: its entry is prefetched when the other is
    /// picked, while the contact's draws hide the cache miss.
    public func contacts(initiatedBy person: Int, dayIndex: Int, midnight: SimTime, stream: RandomStream,
                         segments: inout [ContactSegment], prefetch: UnsafePointer<Int32>? = nil,
                         _ emit: (ContactView) -> Void) {
        if segments.count < ContactMaker.mostSegments {
            segments = [ContactSegment](repeating: ContactSegment(seconds: 0, log10Metres: 0), count: ContactMaker.mostSegments)
        }
        segments.withUnsafeMutableBufferPointer { buffer in
            withoutActuallyEscaping(emit) { emit in
                generate(person: person, dayIndex: dayIndex, midnight: midnight, stream: stream, segments: buffer,
                         prefetch: prefetch, emit)
            }
        }
    }

    private func generate(person: Int, dayIndex: Int, midnight: SimTime, stream: RandomStream,
                          segments: UnsafeMutableBufferPointer<ContactSegment>, prefetch: UnsafePointer<Int32>?,
                          _ emit: @escaping (ContactView) -> Void) {
        let p = parameters
        let weekday = CivilCalendar.weekday(of: midnight) < 5
        var maker = ContactMaker(person: Int32(person), midnight: midnight, stream: stream, segments: segments, emit: emit)
        maker.prefetch = prefetch
        let families = layerFamilies, shapes = layerShapes

        maker.begin(.household, family: families[ContactLayer.household.rawValue], dayIndex: dayIndex)
        let h = Int(householdOf[person])
        for other in (person + 1)..<Int(householdStart[h + 1]) {
            // At home people sit or stand still longer: the distance changes every 5–15 minutes.
            maker.contact(with: other, startWindow: 17 * 3600...21 * 3600, shape: shapes[ContactLayer.household.rawValue],
                          stretch: 300...900)
        }
        if weekday, let group = workplace.members(of: person) {
            maker.begin(.workplace, family: families[ContactLayer.workplace.rawValue], dayIndex: dayIndex)
            for _ in 0..<stream.poisson(mean: p.workplaceContactsMean / 2) where group.count > 1 {
                maker.contact(with: maker.pickOther(in: group), startWindow: 9 * 3600...16 * 3600,
                              shape: shapes[ContactLayer.workplace.rawValue])
            }
        }
        if weekday, let group = schoolClass.members(of: person) {
            maker.begin(.school, family: families[ContactLayer.school.rawValue], dayIndex: dayIndex)
            for _ in 0..<stream.poisson(mean: p.schoolContactsMean / 2) where group.count > 1 {
                maker.contact(with: maker.pickOther(in: group), startWindow: 8 * 3600...12 * 3600,
                              shape: shapes[ContactLayer.school.rawValue])
            }
        }
        maker.begin(.community, family: families[ContactLayer.community.rawValue], dayIndex: dayIndex)
        if size > 1 {
            let count = stream.negativeBinomial(mean: p.communityContactsMean / 2, dispersion: p.communityDispersion)
            for _ in 0..<count {
                var other = stream.uniformInt(size - 1)
                if other >= person { other += 1 }
                maker.contact(with: other, startWindow: 8 * 3600...20 * 3600, shape: shapes[ContactLayer.community.rawValue])
            }
        }
        if weekday, isRider[person], riders.count > 1 {
            maker.begin(.transport, family: families[ContactLayer.transport.rawValue], dayIndex: dayIndex)
            for tripStart in [7 * 3600, 17 * 3600] {
                for _ in 0..<stream.poisson(mean: p.transportContactsPerTrip / 2) {
                    let other = Int(riders[stream.uniformInt(riders.count)])
                    if other == person { continue }
                    maker.transportContact(with: other, startWindow: tripStart...(tripStart + 2 * 3600),
                                           shape: shapes[ContactLayer.transport.rawValue], metres: p.transportMetresRange)
                }
            }
        }
    }
}

/// Members of groups (workplaces, classes) in compressed rows.
package struct Groups {
    package let groupOf: [Int32]
    package let offsets: [Int32]
    package let members: [Int32]

    package init(members list: [Int32], size: Int, nextSize: () -> Int) {
        var groupOf = [Int32](repeating: -1, count: size)
        var offsets: [Int32] = [0]
        var i = 0
        while i < list.count {
            let n = min(max(1, nextSize()), list.count - i)
            for m in list[i..<(i + n)] { groupOf[Int(m)] = Int32(offsets.count - 1) }
            i += n
            offsets.append(Int32(i))
        }
        self.groupOf = groupOf
        self.offsets = offsets
        self.members = list
    }

    package func members(of person: Int) -> ArraySlice<Int32>? {
        let g = Int(groupOf[person])
        guard g >= 0 else { return nil }
        return members[Int(offsets[g])..<Int(offsets[g + 1])]
    }

    package var count: Int { offsets.count - 1 }

    package var bytes: Int { (groupOf.count + offsets.count + members.count) * 4 }
}

/// A layer's log-normal locations: of contact durations (minutes) and of distances (metres,
/// as the base-10 logarithm of the median, since segments keep log10 distances).
package struct ContactShape {
    package static let durationSigma = 0.6
    /// The log-sd of distances (natural log), and the same spread in base 10.
    package static let metresSigma = 0.5
    package static let log10MetresSigma = metresSigma / M_LN10
    /// Distances are clamped to 0.3…10 m.
    package static let log10MetresRange = log10(0.3)...1.0
    package let durationZeta: Double
    package let log10MetresMedian: Double

    package init(layer: ContactLayer, parameters p: ContactParameters) {
        let (minutes, metres): (Double, Double) = switch layer {
        case .household: (p.householdMinutesMean, p.householdMetresMedian)
        case .workplace: (p.workplaceMinutesMean, p.workplaceMetresMedian)
        case .school: (p.schoolMinutesMean, p.schoolMetresMedian)
        case .community: (p.communityMinutesMean, p.communityMetresMedian)
        case .transport: (p.transportMinutesMean, 1)  // riders' distances are uniform (`transportMetresRange`)
        }
        durationZeta = log(minutes) - Self.durationSigma * Self.durationSigma / 2
        log10MetresMedian = log10(metres)
    }
}

/// Draws one person's contacts of one layer and hands them to the caller.
package struct ContactMaker {
    package let person: Int32
    package let midnight: SimTime
    package let stream: RandomStream
    /// Room for the most segments a contact can have; the current contact's are the first `segmentCount`.
    package let segments: UnsafeMutableBufferPointer<ContactSegment>
    package private(set) var segmentCount = 0
    package let emit: (ContactView) -> Void
    package var layer = ContactLayer.household
    /// See `ContactNetwork.contacts(initiatedBy:…prefetch:)`.
    package var prefetch: UnsafePointer<Int32>? = nil

    /// The most segments of one contact: it ends by midnight, and every segment but its last
    /// lasts at least a minute (`stretch` starts at a minute or more).
    package static let mostSegments = 86_400 / 60 + 1

    package init(person: Int32, midnight: SimTime, stream: RandomStream, segments: UnsafeMutableBufferPointer<ContactSegment>,
                 emit: @escaping (ContactView) -> Void) {
        precondition(segments.count >= Self.mostSegments, "room for a day of one-minute segments")
        self.person = person
        self.midnight = midnight
        self.stream = stream
        self.segments = segments
        self.emit = emit
    }

    /// The stream family of `layer`'s contacts.
    package static func family(seed: UInt64, layer: ContactLayer) -> StreamFamily { StreamFamily(seed: seed, stream: "contacts-" + layer.name) }

    /// Starts `layer`'s contacts on the person's own stream of that layer and day (`family(seed:layer:)`).
    package mutating func begin(_ layer: ContactLayer, family: StreamFamily, dayIndex: Int) {
        self.layer = layer
        stream.reseed(family, index: UInt64(person) << 16 | UInt64(dayIndex))
    }

    package func pickOther(in group: ArraySlice<Int32>) -> Int {
        while true {
            let other = group[group.startIndex + stream.uniformInt(group.count)]
            if other != person { return Int(other) }
        }
    }

    /// Log-normal with the layer's mean and log-sd `ContactShape.durationSigma`, in whole seconds, at least a minute.
    /// The normal comes from the ziggurat (GSL's log-normal uses the polar method: a log and a root more).
    package func duration(_ shape: ContactShape) -> Int32 {
        let minutes = exp(shape.durationZeta + stream.normal(sd: ContactShape.durationSigma))
        return Int32(max(60, min(minutes * 60, 12 * 3600)))
    }

    /// A contact whose distance changes every `stretch` seconds (uniform), log-normal around the layer's median.
    package mutating func contact(with other: Int, startWindow: ClosedRange<Int>, shape: ContactShape,
                          stretch: ClosedRange<Int> = 60...300) {
        precondition(stretch.lowerBound >= 60, "segments of at least a minute")
        if let prefetch { ensim_prefetch(prefetch + other) }
        let start = startWindow.lowerBound + stream.uniformInt(startWindow.count)
        var remaining = min(duration(shape), Int32(86_400 - start))
        segmentCount = 0
        let median = shape.log10MetresMedian, range = ContactShape.log10MetresRange
        while remaining > 0 {
            let piece = min(remaining, Int32(stretch.lowerBound + stream.uniformInt(stretch.count)))
            // Log-normal distance drawn as its logarithm: the radio and the ground truth need no exp.
            let log10Metres = min(range.upperBound, max(range.lowerBound, median + stream.normal(sd: ContactShape.log10MetresSigma)))
            add(ContactSegment(seconds: piece, log10Metres: log10Metres))
            remaining -= piece
        }
        send(other: other, start: start)
    }

    /// Written in place: an array's append checked its buffer's uniqueness for every segment.
    @inline(__always)
    private mutating func add(_ segment: ContactSegment) {
        segments[segmentCount] = segment
        segmentCount &+= 1
    }

    /// Riders stand 1–3 m apart, changing every 1–3 minutes as people get on and off.
    package mutating func transportContact(with other: Int, startWindow: ClosedRange<Int>, shape: ContactShape, metres: ClosedRange<Double>) {
        if let prefetch { ensim_prefetch(prefetch + other) }
        let start = startWindow.lowerBound + stream.uniformInt(startWindow.count)
        var remaining = min(duration(shape), Int32(86_400 - start))
        segmentCount = 0
        while remaining > 0 {
            let piece = min(remaining, Int32(60 + stream.uniformInt(121)))
            add(ContactSegment(seconds: piece, metres: Float(stream.uniform(metres.lowerBound, metres.upperBound))))
            remaining -= piece
        }
        send(other: other, start: start)
    }

    private func send(other: Int, start: Int) {
        emit(ContactView(a: person, b: Int32(other), start: midnight + Int64(start), layer: layer,
                         segments: UnsafeBufferPointer(rebasing: segments[0..<segmentCount])))
    }
}
