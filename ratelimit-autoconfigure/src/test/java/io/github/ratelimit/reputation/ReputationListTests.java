package io.github.ratelimit.reputation;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.core.DenialReason;
import io.github.ratelimit.identity.AddressBits;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reputation list refreshed by a manual clock: no test sleeps, and a refresh happens
 * exactly when the interval has passed.
 */
class ReputationListTests {

	private static final Duration INTERVAL = Duration.ofMinutes(5);

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final FeedSource feed = new FeedSource("203.0.113.0/24\n");

	private final ReputationList list = new ReputationList("drop", this.feed, null, INTERVAL, 1000, this.clock);

	private final ReputationLists lists = new ReputationLists(List.of(this.list));

	@Test
	void holdsNothingUntilFirstRead() {
		assertThat(this.lists.screen(address("203.0.113.7"))).isNull();
		this.lists.refreshDue();
		assertThat(this.lists.screen(address("203.0.113.7"))).isEqualTo(DenialReason.REPUTATION);
		assertThat(this.list.loadedAt()).isEqualTo(this.clock.instant());
	}

	@Test
	void aNewAddressIsDeniedWithinOneInterval() {
		this.lists.refreshDue();
		this.feed.text = "203.0.113.0/24\n198.51.100.7\n";
		this.clock.advance(INTERVAL.minusSeconds(1));
		this.lists.refreshDue();
		assertThat(this.lists.screen(address("198.51.100.7"))).as("not due yet").isNull();
		this.clock.advance(Duration.ofSeconds(1));
		this.lists.refreshDue();
		assertThat(this.lists.screen(address("198.51.100.7"))).isEqualTo(DenialReason.REPUTATION);
		assertThat(this.feed.reads).isEqualTo(2);
	}

	@Test
	void aCorruptRefreshKeepsTheLastGoodList() {
		this.lists.refreshDue();
		this.feed.text = "<html>\n<body>Service Unavailable</body>\n</html>\n198.51.100.7\n";
		this.clock.advance(INTERVAL);
		assertThat(this.list.refreshIfDue()).isEqualTo(RefreshResult.REJECTED);
		assertThat(this.lists.screen(address("203.0.113.7"))).isEqualTo(DenialReason.REPUTATION);
		assertThat(this.lists.screen(address("198.51.100.7"))).isNull();
	}

	@Test
	void anEmptyRefreshKeepsTheLastGoodList() {
		this.lists.refreshDue();
		this.feed.text = "# truncated\n";
		this.clock.advance(INTERVAL);
		assertThat(this.list.refreshIfDue()).isEqualTo(RefreshResult.REJECTED);
		assertThat(this.lists.screen(address("203.0.113.7"))).isEqualTo(DenialReason.REPUTATION);
	}

	@Test
	void aFailedRefreshKeepsTheLastGoodListAndTriesAgainNextInterval() {
		this.lists.refreshDue();
		this.feed.failure = new IOException("Connection refused");
		this.clock.advance(INTERVAL);
		assertThat(this.list.refreshIfDue()).isEqualTo(RefreshResult.FAILED);
		assertThat(this.lists.screen(address("203.0.113.7"))).isEqualTo(DenialReason.REPUTATION);
		this.feed.failure = null;
		this.feed.text = "198.51.100.0/24\n";
		assertThat(this.list.refreshIfDue()).as("not before the next interval").isNull();
		this.clock.advance(INTERVAL);
		assertThat(this.list.refreshIfDue()).isEqualTo(RefreshResult.LOADED);
		assertThat(this.lists.screen(address("203.0.113.7"))).isNull();
		assertThat(this.lists.screen(address("198.51.100.9"))).isEqualTo(DenialReason.REPUTATION);
	}

	@Test
	void aFewBadLinesAreSkippedAndTheRestLoaded() {
		this.feed.text = "203.0.113.0/24\n203.0.113.1/24\n198.51.100.0/24\n";
		assertThat(this.list.refresh()).isEqualTo(RefreshResult.LOADED);
		assertThat(this.lists.screen(address("198.51.100.1"))).isEqualTo(DenialReason.REPUTATION);
	}

	@Test
	void aListLargerThanItsBoundIsRefusedWhole() {
		ReputationList bounded = new ReputationList("tor", this.feed, null, INTERVAL, 1, this.clock);
		this.feed.text = "203.0.113.1\n";
		assertThat(bounded.refresh()).isEqualTo(RefreshResult.LOADED);
		this.feed.text = "203.0.113.1\n203.0.113.2\n";
		assertThat(bounded.refresh()).isEqualTo(RefreshResult.REJECTED);
		assertThat(bounded.contains(address("203.0.113.1"))).isTrue();
		assertThat(bounded.contains(address("203.0.113.2"))).isFalse();
	}

	@Test
	void aTierListHoldsItsAddressesToItsTierAndRefusesNothing() {
		ReputationList tor = new ReputationList("tor", this.feed, "suspicious", INTERVAL, 1000, this.clock);
		ReputationLists tiered = new ReputationLists(List.of(tor));
		tiered.refreshDue();
		assertThat(tiered.refuses()).isFalse();
		assertThat(tiered.screen(address("203.0.113.7"))).isNull();
		assertThat(tiered.tierOf("203.0.113.7")).isEqualTo("suspicious");
		assertThat(tiered.tierOf("198.51.100.7")).isNull();
		assertThat(tiered.tierOf("not an address")).isNull();
	}

	@Test
	void badLinesAreListedAtMostOnceAnHourPerList() {
		BadLineLog log = new BadLineLog(this.clock);
		List<CidrLines.BadLine> bad = List.of(new CidrLines.BadLine(3, "not a range"));
		assertThat(log.report("drop", "file:/drop.txt", bad)).isTrue();
		this.clock.advance(Duration.ofMinutes(59));
		assertThat(log.report("drop", "file:/drop.txt", bad)).isFalse();
		this.clock.advance(Duration.ofMinutes(1));
		assertThat(log.report("drop", "file:/drop.txt", bad)).isTrue();
		assertThat(log.report("drop", "file:/drop.txt", List.of())).isFalse();
	}

	private static AddressBits address(String text) {
		AddressBits bits = AddressBits.parse(text);
		assertThat(bits).isNotNull();
		return bits;
	}

	/** A feed whose text or failure a test sets. */
	static final class FeedSource implements ListSource {

		volatile String text;

		volatile @Nullable IOException failure;

		volatile int reads;

		FeedSource(String text) {
			this.text = text;
		}

		@Override
		public String location() {
			return "test:feed";
		}

		@Override
		public Reader open() throws IOException {
			this.reads++;
			IOException failure = this.failure;
			if (failure != null) {
				throw failure;
			}
			return new StringReader(this.text);
		}

	}

}
