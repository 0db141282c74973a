package io.github.ratelimit.storage.redis.control;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import io.lettuce.core.KeyValue;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScoredValueScanCursor;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.control.Ban;
import io.github.ratelimit.control.BanChanges;

/**
 * Reads the ban changes an instance has not seen: the entries of the change stream after
 * its cursor, or, when it has none or the stream was trimmed past it, every ban in force
 * (the sorted set, with each subject's offence from its record).
 */
final class BanChangeReader {

	// the store's category, which users may have configured already
	private static final Logger logger = LoggerFactory.getLogger(RedisControlStore.class);

	/** Ban changes read at once, and bans in force read at once in a resync. */
	private static final int BATCH = 1000;

	/** The cursor before the first entry of a stream. */
	private static final String START = "0-0";

	private final ControlKeys keys;

	private final int maxActiveBans;

	private final LongSupplier clock;

	private final AtomicBoolean badRecordLogged = new AtomicBoolean();

	/**
	 * Creates a reader.
	 * @param keys where the bans live
	 * @param maxActiveBans the most bans in force at once: a resync reads no more
	 * @param clock the time in ms that tells a ban in force from one that is over
	 */
	BanChangeReader(ControlKeys keys, int maxActiveBans, LongSupplier clock) {
		this.keys = keys;
		this.maxActiveBans = maxActiveBans;
		this.clock = clock;
	}

	BanChanges banChanges(RedisClusterCommands<byte[], byte[]> commands, @Nullable String cursor) {
		if (cursor == null) {
			return resync(commands);
		}
		// from the cursor, inclusive: an answer that does not start with it means the
		// stream was trimmed past
		// it (or lost), and the changes in between are gone
		List<StreamMessage<byte[], byte[]>> messages = commands.xrange(this.keys.log(),
				Range.from(Range.Boundary.including(cursor), Range.Boundary.unbounded()), Limit.from(BATCH + 1));
		List<BanChanges.Change> changes = new ArrayList<>();
		if (cursor.equals(START)) {
			// nothing was read yet: only a stream that was never trimmed holds every
			// change since
			if (!messages.isEmpty() && commands.xlen(this.keys.log()) >= RedisControlStore.LOG_LENGTH) {
				return resync(commands);
			}
		}
		else if (messages.isEmpty() || !messages.get(0).getId().equals(cursor)) {
			return resync(commands);
		}
		else {
			messages = messages.subList(1, messages.size());
		}
		String next = cursor;
		for (StreamMessage<byte[], byte[]> message : messages) {
			next = message.getId();
			BanChanges.Change change = change(message);
			if (change != null) {
				changes.add(change);
			}
		}
		return new BanChanges(next, false, changes);
	}

	/**
	 * Every ban in force, in pages, read after the stream's last id so that no change
	 * falls in between.
	 */
	private BanChanges resync(RedisClusterCommands<byte[], byte[]> commands) {
		List<StreamMessage<byte[], byte[]>> last = commands.xrevrange(this.keys.log(), Range.unbounded(),
				Limit.from(1));
		String cursor = last.isEmpty() ? START : last.get(0).getId();
		long now = this.clock.getAsLong();
		List<BanChanges.Change> bans = new ArrayList<>();
		// ZSCAN returns every member that stays in the set throughout the scan: one that
		// leaves it meanwhile
		// is lifted or over, and a lift is in the stream after the cursor
		ScoredValueScanCursor<byte[]> scan = commands.zscan(this.keys.active(), ScanArgs.Builder.limit(BATCH));
		while (true) {
			List<ScoredValue<byte[]>> page = new ArrayList<>();
			for (ScoredValue<byte[]> value : scan.getValues()) {
				if (value.getScore() > now && bans.size() + page.size() < this.maxActiveBans) {
					page.add(value);
				}
			}
			bans.addAll(withOffences(commands, page));
			if (scan.isFinished() || bans.size() >= this.maxActiveBans) {
				break;
			}
			scan = commands.zscan(this.keys.active(), scan, ScanArgs.Builder.limit(BATCH));
		}
		return new BanChanges(cursor, true, bans);
	}

	private List<BanChanges.Change> withOffences(RedisClusterCommands<byte[], byte[]> commands,
			List<ScoredValue<byte[]>> page) {
		if (page.isEmpty()) {
			return List.of();
		}
		byte[][] keys = new byte[page.size()][];
		for (int i = 0; i < page.size(); i++) {
			keys[i] = this.keys.ban(ControlRecords.string(page.get(i).getValue()));
		}
		List<KeyValue<byte[], byte[]>> records = commands.mget(keys);
		List<BanChanges.Change> bans = new ArrayList<>(page.size());
		for (int i = 0; i < page.size(); i++) {
			String subject = ControlRecords.string(page.get(i).getValue());
			int offence = 1;
			KeyValue<byte[], byte[]> record = (i < records.size()) ? records.get(i) : null;
			if (record != null && record.hasValue()) {
				// the offence is for display and doubling only: a bad record shows 1
				// rather than stop the read
				String[] parts = ControlRecords.string(record.getValue()).split(":");
				try {
					offence = (parts.length == 3) ? Math.max(1, Integer.parseInt(parts[1])) : 1;
				}
				catch (NumberFormatException ex) {
					offence = 1;
				}
			}
			bans.add(BanChanges.Change
				.started(new Ban(subject, Instant.ofEpochMilli((long) page.get(i).getScore()), offence)));
		}
		return bans;
	}

	/**
	 * One stream entry; a bad one is skipped (and said once), so it never stops the
	 * changes after it.
	 */
	private BanChanges.@Nullable Change change(StreamMessage<byte[], byte[]> message) {
		String subject = null;
		String until = null;
		String offence = null;
		for (Map.Entry<byte[], byte[]> field : message.getBody().entrySet()) {
			switch (ControlRecords.string(field.getKey())) {
				case "s" -> subject = ControlRecords.string(field.getValue());
				case "u" -> until = ControlRecords.string(field.getValue());
				case "o" -> offence = ControlRecords.string(field.getValue());
				default -> {
				}
			}
		}
		try {
			if (subject == null || until == null || offence == null) {
				throw new IllegalArgumentException("missing fields");
			}
			int number = Integer.parseInt(offence);
			if (number == 0) {
				return BanChanges.Change.lifted(subject);
			}
			return BanChanges.Change.started(new Ban(subject, Instant.ofEpochMilli(Long.parseLong(until)), number));
		}
		catch (IllegalArgumentException ex) {
			if (this.badRecordLogged.compareAndSet(false, true)) {
				logger.warn("Skipping a ban change that cannot be read ({} in {}); logged once", message.getId(),
						ControlRecords.string(this.keys.log()));
			}
			return null;
		}
	}

}
