import Detection
import GSL
import HealthBackend
import Testing

@Suite struct PhoneDownloadsTests {
    /// Downloads in (phone, time, package) order; some phones have none, the last ones included.
    static func downloads(seed: UInt64) -> [PackageDownload] {
        let stream = RandomStream(seed: seed, stream: "phone-downloads-test")
        var out: [PackageDownload] = []
        for phone in 0..<950 where stream.uniform() < 0.7 {
            for k in 0..<stream.uniformInt(30) {
                out.append(PackageDownload(phone: Int32(phone), package: stream.uniformInt(400), at: Int64(k) * 3_600))
            }
        }
        return out
    }

    @Test func rowsAreTheSameForAnyThreadCount() {
        let rows = Self.downloads(seed: 3)
        var expected = [Int](repeating: 0, count: 1_001)
        for d in rows { expected[Int(d.phone) + 1] += 1 }
        for p in 0..<1_000 { expected[p + 1] += expected[p] }
        for threads in [1, 2, 3, 7] {
            #expect(PhoneDownloads(sorted: rows, phones: 1_000, threads: threads).rowStart == expected, "threads \(threads)")
        }
        #expect(PhoneDownloads(sorted: [], phones: 5, threads: 3).rowStart == [0, 0, 0, 0, 0, 0])
    }

    @Test func orderIsCheckedAcrossChunkBounds() {
        let rows = Self.downloads(seed: 4)
        for threads in [1, 2, 3] {
            #expect(PhoneDownloads.inPhoneOrder(rows, threads: threads))
            // Every adjacent swap of two different rows is caught, wherever the chunks fall.
            for i in stride(from: 0, to: rows.count - 1, by: 97) where rows[i] != rows[i + 1] {
                var swapped = rows
                swapped.swapAt(i, i + 1)
                #expect(!PhoneDownloads.inPhoneOrder(swapped, threads: threads), "swap at \(i), threads \(threads)")
            }
        }
        #expect(PhoneDownloads.inPhoneOrder([], threads: 2))
    }
}
