import Foundation
import Testing

@testable import UserDefault

/// A file's identity is arithmetic-free: nanoseconds since 1970 in one `Int` trapped where
/// `Int` is 32 bits (arm64_32, any date after 1970 plus 2 s) and, in 64 bits, for a file
/// dated after 2262, which a read of the store then crashed on.
@Suite struct PreferencesFileIdentityTests {
  /// A file's status dated `seconds` after 1970, as the platform's `stat` spells the field.
  static func status(modifiedAt seconds: Int64, nanoseconds: Int64 = 0) -> stat {
    var info = stat()
    #if canImport(Darwin)
      info.st_mtimespec.tv_sec = .init(seconds)
      info.st_mtimespec.tv_nsec = .init(nanoseconds)
    #else
      info.st_mtim.tv_sec = .init(seconds)
      info.st_mtim.tv_nsec = .init(nanoseconds)
    #endif
    return info
  }

  @Test func aFileDatedAfter2262HasAnIdentityRatherThanATrap() {
    // 2300-01-01: 10,413,792,000 s, which times 10^9 is beyond Int64.max.
    let late = PreferencesFile.Identity(Self.status(modifiedAt: 10_413_792_000))
    let later = PreferencesFile.Identity(Self.status(modifiedAt: 10_413_792_000, nanoseconds: 1))
    #expect(late != later)
    #expect(late.modifiedSeconds == 10_413_792_000)
  }

  @Test func identitiesDifferByTheNanosecond() {
    let now = PreferencesFile.Identity(Self.status(modifiedAt: 1_764_000_000, nanoseconds: 5))
    #expect(now == PreferencesFile.Identity(Self.status(modifiedAt: 1_764_000_000, nanoseconds: 5)))
    #expect(now != PreferencesFile.Identity(Self.status(modifiedAt: 1_764_000_000, nanoseconds: 6)))
    #expect(now != PreferencesFile.Identity(Self.status(modifiedAt: 1_764_000_001, nanoseconds: 5)))
  }
}
