import Testing

@testable import UserDefault

@Suite("Which deferred save of a Foundation suite is due")
struct SaveScheduleTests {
  @Test func aBurstOfWritesSchedulesOneSave() throws {
    var schedule = SaveSchedule()
    let asked = schedule.requestSave()
    let first = try #require(asked)
    let during = schedule.requestSave()
    #expect(during == nil)
    let began = schedule.begin(first)
    #expect(began)
    let second = schedule.requestSave()
    #expect(second != nil && second != first, "a write after the save began asks for its own")
  }

  @Test func aSaveByHandMakesTheDueSaveStale() throws {
    var schedule = SaveSchedule()
    let asked = schedule.requestSave()
    let armed = try #require(asked)
    schedule.caughtUp()
    let askedAfter = schedule.requestSave()
    let next = try #require(askedAfter, "the next write's save comes a window after that write")
    let staleBegan = schedule.begin(armed)
    #expect(!staleBegan, "the stale timer does nothing")
    let meanwhile = schedule.requestSave()
    #expect(meanwhile == nil, "nor does it clear the save now due")
    let nextBegan = schedule.begin(next)
    #expect(nextBegan)
  }

  @Test func aFailedSaveRunsAgainUnlessAnotherWasAskedFor() throws {
    var schedule = SaveSchedule()
    let asked = schedule.requestSave()
    let failing = try #require(asked)
    _ = schedule.begin(failing)
    let retried = schedule.retry(failing)
    #expect(retried)
    let meanwhile = schedule.requestSave()
    #expect(meanwhile == nil, "the retry is the save that is due")
    let retryBegan = schedule.begin(failing)
    #expect(retryBegan)

    let askedAfter = schedule.requestSave()
    let newer = try #require(askedAfter)
    let retriedAgain = schedule.retry(failing)
    #expect(!retriedAgain, "the newer save takes the waiting changes")
    let newerBegan = schedule.begin(newer)
    #expect(newerBegan)
  }
}
