package io.github.ratelimit.control;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A flood of bans, one per rotated address: what an instance holds stays bounded, the ban
 * log stays a few lines, and a subject cannot write a line of its own into it.
 */
class RuntimeControlBanFloodTests {

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final PolicyTable table = PolicyTable.build(Map.of("free", Map.of("ip", Map.of("default", "10/1m"))),
			Map.of(), Set.of());

	private final BanRules banAtFirstRefusal = new BanRules(new BanRules.Settings(1, Duration.ofMinutes(1),
			Duration.ofHours(1), Duration.ofHours(1), Duration.ofDays(1)), Map.of(), Map.of());

	private final Logger banLogger = (Logger) LoggerFactory.getLogger(RuntimeControl.BANS_LOGGER);

	private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

	private Level level;

	@BeforeEach
	void captureBanLog() {
		this.level = this.banLogger.getLevel();
		this.banLogger.setLevel(Level.INFO);
		this.lines.start();
		this.banLogger.addAppender(this.lines);
	}

	@AfterEach
	void restore() {
		this.banLogger.detachAppender(this.lines);
		this.banLogger.setLevel(this.level);
	}

	private RuntimeControl control(ControlStore store) {
		return new RuntimeControl(store, new PolicyRegistry(this.table), List.of(), this.banAtFirstRefusal, this.clock,
				Duration.ofSeconds(1));
	}

	private static Identity address(int i) {
		return Identity.anonymous(
				"2001:db8:" + Integer.toHexString(i >>> 16) + ":" + Integer.toHexString(i & 0xffff) + "::/64", "free");
	}

	@Test
	void aMillionBansHoldAtMostMaxActiveOnTheHeapAndTheRestAreRefusedWithoutABan() {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		long before = usedHeapAfterGc(memory);
		InMemoryControlStore store = new InMemoryControlStore(this.clock);
		RuntimeControl control = control(store);
		for (int i = 0; i < 1_000_000; i++) {
			control.refused(address(i), "free", "default");
		}
		int maxActive = ControlStore.DEFAULT_MAX_ACTIVE_BANS;
		// held as they started, before any refresh
		assertThat(control.bans()).hasSize(maxActive);
		control.refresh();
		assertThat(control.bans()).hasSize(maxActive);
		assertThat(control.bansStarted()).isEqualTo(maxActive);
		assertThat(control.bansNotStarted()).isEqualTo(1_000_000 - maxActive);
		assertThat(control.ban(address(0))).isNotNull();
		assertThat(control.ban(address(999_999))).isNull();
		long retained = usedHeapAfterGc(memory) - before;
		// what the store and the instance hold for 100,000 bans, measured at about 50 MB;
		// a million would be 10x
		assertThat(retained).as("heap retained by %d bans", maxActive).isLessThan(120L * 1024 * 1024);
		// once they end, the refresh's sweep frees them and new bans start again
		this.clock.advance(Duration.ofHours(1));
		control.refresh();
		assertThat(control.bans()).isEmpty();
		control.refused(address(999_999), "free", "default");
		assertThat(control.ban(address(999_999))).isNotNull();
	}

	@Test
	void aFloodOfBansWritesOneLineASecondAndCountsTheRest() {
		RuntimeControl control = control(new InMemoryControlStore(this.clock));
		for (int i = 0; i < 1000; i++) {
			control.refused(address(i), "free", "default");
		}
		assertThat(this.lines.list).hasSize(1);
		assertThat(this.lines.list.get(0).getFormattedMessage()).startsWith("Banned ip:2001:db8:0:0::/64 until ");
		this.clock.advance(Duration.ofSeconds(1));
		control.refresh();
		assertThat(this.lines.list).hasSize(2);
		assertThat(this.lines.list.get(1).getFormattedMessage()).contains("999 more bans since the last line");
		this.clock.advance(Duration.ofSeconds(1));
		control.refused(address(5000), "free", "default");
		assertThat(this.lines.list).hasSize(3);
		assertThat(this.lines.list.get(2).getFormattedMessage()).doesNotContain("more bans");
	}

	@Test
	void aUserNameWithLineBreaksCannotForgeABanLogLine() {
		RuntimeControl control = control(new InMemoryControlStore(this.clock));
		Identity forger = new Identity("mallory\r\n10:00:00.000 [main] INFO lifted every ban\u0007", null, null,
				"203.0.113.9", "free", true);
		control.refused(forger, "free", "default");
		assertThat(control.ban(forger)).isNotNull();
		String line = this.lines.list.get(0).getFormattedMessage();
		assertThat(line).doesNotContain("\r").doesNotContain("\n").doesNotContain("\u0007");
		assertThat(line).startsWith("Banned user:mallory\\r\\n10:00:00.000 [main] INFO lifted every ban\\u0007 until ");
	}

	@Test
	void aFullStoreStartsNoBanAndSaysSoRateLimited() {
		RuntimeControl control = control(new InMemoryControlStore(this.clock, 1000, 10));
		for (int i = 0; i < 100; i++) {
			control.refused(address(i), "free", "default");
		}
		assertThat(control.bans()).hasSize(10);
		assertThat(control.bansNotStarted()).isEqualTo(90);
		assertThat(this.lines.list).hasSize(1);
		this.clock.advance(Duration.ofSeconds(1));
		control.refresh();
		assertThat(this.lines.list).hasSize(2);
		assertThat(this.lines.list.get(1).getFormattedMessage()).contains("9 more bans since the last line")
			.contains("90 more refusals started no ban (max-active reached)");
	}

	private static long usedHeapAfterGc(MemoryMXBean memory) {
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

}
