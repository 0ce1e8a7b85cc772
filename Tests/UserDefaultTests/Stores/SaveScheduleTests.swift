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
    let began = schedule.startIfDue(first)
    #expect(began)
    let second = schedule.requestSave()
    #expect(second != nil && second != first, "a write after the save began asks for its own")
  }

  @Test func aSaveByHandMakesTheDueSaveStale() throws {
    var schedule = SaveSchedule()
    let asked = schedule.requestSave()
    let armed = try #require(asked)
    schedule.markSaved(leavingPending: false)
    let askedAfter = schedule.requestSave()
    let next = try #require(askedAfter, "the next write's save comes a window after that write")
    let staleBegan = schedule.startIfDue(armed)
    #expect(!staleBegan, "the stale timer does nothing")
    let meanwhile = schedule.requestSave()
    #expect(meanwhile == nil, "nor does it clear the save now due")
    let nextBegan = schedule.startIfDue(next)
    #expect(nextBegan)
  }

  @Test func aSaveThatLeavesKeysPendingKeepsTheDueSave() throws {
    var schedule = SaveSchedule()
    let asked = schedule.requestSave()
    let armed = try #require(asked)
    schedule.markSaved(leavingPending: true)
    let meanwhile = schedule.requestSave()
    #expect(meanwhile == nil, "the keys written during the save ride on the due save")
    let armedStarted = schedule.startIfDue(armed)
    #expect(armedStarted)
  }

  @Test func aFailedSaveRunsAgainUnlessAnotherWasAskedFor() throws {
    var schedule = SaveSchedule()
    let asked = schedule.requestSave()
    let failing = try #require(asked)
    let failingStarted = schedule.startIfDue(failing)
    #expect(failingStarted)
    let retried = schedule.rescheduleIfIdle(failing)
    #expect(retried)
    let meanwhile = schedule.requestSave()
    #expect(meanwhile == nil, "the retry is the save that is due")
    let retryBegan = schedule.startIfDue(failing)
    #expect(retryBegan)

    let askedAfter = schedule.requestSave()
    let newer = try #require(askedAfter)
    let retriedAgain = schedule.rescheduleIfIdle(failing)
    #expect(!retriedAgain, "the newer save takes the waiting changes")
    let newerBegan = schedule.startIfDue(newer)
    #expect(newerBegan)
  }
}
