package io.github.ratelimit.storage.redis.control;

/**
 * Where the control store keeps its state in Redis. Every key carries the hash tag
 * {@code {<prefix>control}}, so on a Cluster they all live in one slot and the ban
 * scripts can touch several of them at once.
 */
final class ControlKeys {

	private final byte[] version;

	private final byte[] overrides;

	private final byte[] rules;

	private final byte[] active;

	private final byte[] records;

	private final byte[] log;

	private final String banPrefix;

	private final String refusalsPrefix;

	/**
	 * The keys under a namespace.
	 * @param keyPrefix the namespace of keys ({@code ratelimit.storage.key-prefix})
	 */
	ControlKeys(String keyPrefix) {
		String tag = "{" + keyPrefix + "control}:";
		this.version = ControlRecords.bytes(tag + "version");
		this.overrides = ControlRecords.bytes(tag + "overrides");
		this.rules = ControlRecords.bytes(tag + "rules");
		this.active = ControlRecords.bytes(tag + "bans:active");
		this.log = ControlRecords.bytes(tag + "bans:log");
		this.records = ControlRecords.bytes(tag + "bans:records");
		this.banPrefix = tag + "ban:";
		this.refusalsPrefix = tag + "refusals:";
	}

	/** The counter every operator write increments, polled by each instance. */
	byte[] version() {
		return this.version;
	}

	/** The hash of overrides. */
	byte[] overrides() {
		return this.overrides;
	}

	/** The hash of access rules. */
	byte[] rules() {
		return this.rules;
	}

	/** The sorted set of the bans in force (score: the end). */
	byte[] active() {
		return this.active;
	}

	/**
	 * The sorted set of the ban records (member: the record's key, score: when it is
	 * forgotten).
	 */
	byte[] records() {
		return this.records;
	}

	/** The stream of bans started and lifted. */
	byte[] log() {
		return this.log;
	}

	/** The record of a banned subject, for doubling. */
	byte[] ban(String subject) {
		return ControlRecords.bytes(this.banPrefix + ControlRecords.hashed(subject));
	}

	/** The refusal counter of a subject being refused. */
	byte[] refusals(String subject) {
		return ControlRecords.bytes(this.refusalsPrefix + ControlRecords.hashed(subject));
	}

}
