package io.github.ratelimit.autoconfigure;

import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.web.bind.annotation.RequestMethod;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.ControlStore;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.core.FailureMode;
import io.github.ratelimit.core.HotKeyReserves;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.identity.CidrRange;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.ForwardedHeader;
import io.github.ratelimit.load.Priority;
import io.github.ratelimit.policy.CountedResponse;
import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.TokenBucket;
import io.github.ratelimit.policy.WarnAt;
import io.github.ratelimit.storage.redis.RedisStoreDefaults;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;

/**
 * Configuration of the rate limiter, under {@code ratelimit}.
 */
@ConfigurationProperties(prefix = "ratelimit", ignoreUnknownFields = false)
public class RateLimitProperties {

	/**
	 * Whether the rate limiter is enabled.
	 */
	private boolean enabled = true;

	/**
	 * Endpoint groups by name: which requests share a budget and what they cost. The
	 * first group whose patterns match wins; requests that match none are in the
	 * "default" group.
	 */
	private Map<String, Group> groups = new LinkedHashMap<>();

	/**
	 * What a limit does to a request that exceeds it: enforce (429), warn (admit, with a
	 * RateLimit-Warning header and a log line) or observe (admit, response unchanged,
	 * would-be refusals logged). A tier's or a group's own mode overrides it (the group's
	 * wins).
	 */
	private Mode mode = Mode.ENFORCE;

	/**
	 * Soft limit: from this share of a limit used on (for example 80%), responses carry a
	 * RateLimit-Warning header; the block still comes at 100%. Unset: no soft limit. A
	 * tier's or a group's own warn-at overrides it.
	 */
	private @Nullable WarnAt warnAt;

	/**
	 * Limits by tier: per dimension (user, org, token, ip) limit strings by endpoint
	 * group ("default" for any other group), tier-wide quotas, and the tier's mode and
	 * soft limit. A limit string's items are of six kinds: token bucket "100/1m" (or
	 * "100/1m burst 150"), fixed window "100/1m fixed", sliding window "100/1m sliding",
	 * leaky bucket "10/1s leaky", calendar quota "10000/month" and "2 concurrent"; "0"
	 * blocks.
	 */
	private Map<String, Tier> tiers = new LinkedHashMap<>();

	/**
	 * Per-IP backstop that applies to every tier, by endpoint group ("default" for any
	 * other group): limit strings such as "2000/1m", "2000/1m fixed", "2000/1m sliding"
	 * or "50/1s leaky".
	 */
	private Map<String, Limit> ip = new LinkedHashMap<>();

	/**
	 * Budgets of the service shared by every caller together, whatever their tier and
	 * identity, by endpoint group ("default" for any other group, "all" for every request
	 * of the API; both may apply).
	 */
	private Map<String, Limit> service = new LinkedHashMap<>();

	/**
	 * Keys of the application's choosing by name: limits counted per value of a request
	 * header, a path variable, an expression or a resolver bean (exactly one source
	 * each), with limits for every tier here, or per tier under ratelimit.tiers.*.keys.
	 */
	private Map<String, KeyProperties> keys = new LinkedHashMap<>();

	/**
	 * Path patterns that no limit applies to. Unset: everything under the Actuator's base
	 * path (management.endpoints.web.base-path, /actuator by default).
	 */
	private @Nullable List<String> excludePaths;

	private final Storage storage = new Storage();

	private final Identity identity = new Identity();

	private final Headers headers = new Headers();

	private final Filter filter = new Filter();

	private final Quotas quotas = new Quotas();

	private final Waiting waiting = new Waiting();

	private final Access access = new Access();

	private final Bans bans = new Bans();

	private final Control control = new Control();

	private final LoginProtection loginProtection = new LoginProtection();

	private final Status status = new Status();

	/**
	 * Load shedding and adaptive limits.
	 */
	@NestedConfigurationProperty
	private final LoadProperties load = new LoadProperties();

	/**
	 * The warm-up of limits after start.
	 */
	@NestedConfigurationProperty
	private final WarmUpProperties warmUp = new WarmUpProperties();

	/**
	 * The calling side: the application's own HTTP clients honouring the rate limits of
	 * the APIs they call.
	 */
	@NestedConfigurationProperty
	private final RateLimitClientProperties client = new RateLimitClientProperties();

	/**
	 * Country rules: client addresses allowed or refused by country at the gate.
	 */
	@NestedConfigurationProperty
	private final GeoProperties geo = new GeoProperties();

	/**
	 * Reputation lists: addresses from threat-intelligence feeds refused at the gate or
	 * held to a tier.
	 */
	@NestedConfigurationProperty
	private final ReputationProperties reputation = new ReputationProperties();

	public LoadProperties getLoad() {
		return this.load;
	}

	public WarmUpProperties getWarmUp() {
		return this.warmUp;
	}

	public LoginProtection getLoginProtection() {
		return this.loginProtection;
	}

	public Status getStatus() {
		return this.status;
	}

	public RateLimitClientProperties getClient() {
		return this.client;
	}

	public GeoProperties getGeo() {
		return this.geo;
	}

	public ReputationProperties getReputation() {
		return this.reputation;
	}

	public Access getAccess() {
		return this.access;
	}

	public Bans getBans() {
		return this.bans;
	}

	public Control getControl() {
		return this.control;
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Map<String, Group> getGroups() {
		return this.groups;
	}

	public void setGroups(Map<String, Group> groups) {
		this.groups = groups;
	}

	public Mode getMode() {
		return this.mode;
	}

	public void setMode(Mode mode) {
		this.mode = mode;
	}

	public @Nullable WarnAt getWarnAt() {
		return this.warnAt;
	}

	public void setWarnAt(@Nullable WarnAt warnAt) {
		this.warnAt = warnAt;
	}

	public Map<String, Tier> getTiers() {
		return this.tiers;
	}

	public void setTiers(Map<String, Tier> tiers) {
		this.tiers = tiers;
	}

	public Quotas getQuotas() {
		return this.quotas;
	}

	public Waiting getWaiting() {
		return this.waiting;
	}

	public Map<String, Limit> getIp() {
		return this.ip;
	}

	public void setIp(Map<String, Limit> ip) {
		this.ip = ip;
	}

	public Map<String, Limit> getService() {
		return this.service;
	}

	public void setService(Map<String, Limit> service) {
		this.service = service;
	}

	public Map<String, KeyProperties> getKeys() {
		return this.keys;
	}

	public void setKeys(Map<String, KeyProperties> keys) {
		this.keys = keys;
	}

	public @Nullable List<String> getExcludePaths() {
		return this.excludePaths;
	}

	public void setExcludePaths(@Nullable List<String> excludePaths) {
		this.excludePaths = excludePaths;
	}

	public Storage getStorage() {
		return this.storage;
	}

	public Identity getIdentity() {
		return this.identity;
	}

	public Headers getHeaders() {
		return this.headers;
	}

	public Filter getFilter() {
		return this.filter;
	}

	/**
	 * An endpoint group.
	 */
	public static class Group {

		/**
		 * Path patterns of the group, in Spring's PathPattern syntax ("/v1/auth/**").
		 */
		private List<String> paths = new ArrayList<>();

		/**
		 * HTTP methods of the group (GET, POST...); empty for every method.
		 */
		private List<RequestMethod> methods = new ArrayList<>();

		/**
		 * Tokens a request of the group takes from every applicable bucket.
		 */
		private long cost = 1;

		/**
		 * Most requests of one caller (the verified user, else the client address) in
		 * flight at once in this group, whatever the tier; 0 for no cap.
		 */
		private long concurrency;

		/**
		 * How long a request may wait for its tokens instead of being refused; 0 refuses
		 * at once.
		 */
		private Duration maxWait = Duration.ZERO;

		/**
		 * Mode of the group's limits (enforce, warn, observe); unset: the tier's, else
		 * ratelimit.mode.
		 */
		private @Nullable Mode mode;

		/**
		 * Soft limit of the group's limits (for example 80%); unset: the tier's, else
		 * ratelimit.warn-at.
		 */
		private @Nullable WarnAt warnAt;

		/**
		 * Which responses count against the limits declared for this group: all (the
		 * default), failures (4xx and 5xx), auth-failures (401 and 403), or statuses
		 * ("401, 403"). A request takes its token when it starts and gets it back when
		 * its final status is not counted.
		 */
		private List<CountedResponse> count = new ArrayList<>();

		/**
		 * Automatic bans for refusals in this group; each unset setting is the tier's,
		 * else ratelimit.bans'.
		 */
		private final BanSettings bans = new BanSettings();

		/**
		 * Priority of the group's requests when the service sheds load: low, normal,
		 * high, critical (never shed) or a number from 0 to 100; unset: the tier's.
		 */
		private @Nullable Priority priority;

		public @Nullable Priority getPriority() {
			return this.priority;
		}

		public void setPriority(@Nullable Priority priority) {
			this.priority = priority;
		}

		public List<CountedResponse> getCount() {
			return this.count;
		}

		public void setCount(List<CountedResponse> count) {
			this.count = count;
		}

		public BanSettings getBans() {
			return this.bans;
		}

		public long getConcurrency() {
			return this.concurrency;
		}

		public void setConcurrency(long concurrency) {
			this.concurrency = concurrency;
		}

		public Duration getMaxWait() {
			return this.maxWait;
		}

		public void setMaxWait(Duration maxWait) {
			this.maxWait = maxWait;
		}

		public @Nullable Mode getMode() {
			return this.mode;
		}

		public void setMode(@Nullable Mode mode) {
			this.mode = mode;
		}

		public @Nullable WarnAt getWarnAt() {
			return this.warnAt;
		}

		public void setWarnAt(@Nullable WarnAt warnAt) {
			this.warnAt = warnAt;
		}

		public List<String> getPaths() {
			return this.paths;
		}

		public void setPaths(List<String> paths) {
			this.paths = paths;
		}

		public List<RequestMethod> getMethods() {
			return this.methods;
		}

		public void setMethods(List<RequestMethod> methods) {
			this.methods = methods;
		}

		public long getCost() {
			return this.cost;
		}

		public void setCost(long cost) {
			this.cost = cost;
		}

	}

	/**
	 * The limits of one tier.
	 */
	public static class Tier {

		/**
		 * Limits per verified user, by endpoint group ("default" for any other group).
		 * Values are limit strings such as "50/1m, 500/1h", "100/1m burst 150", "100/1m
		 * fixed", "100/1m sliding", "10/1s leaky", "10000/month", "2 concurrent", or "0"
		 * to block.
		 */
		private Map<String, Limit> user = new LinkedHashMap<>();

		/**
		 * Limits per organisation, shared by its users, by endpoint group.
		 */
		private Map<String, Limit> org = new LinkedHashMap<>();

		/**
		 * Limits per API key or token, by endpoint group.
		 */
		private Map<String, Limit> token = new LinkedHashMap<>();

		/**
		 * Limits per client address (IPv6 by prefix), by endpoint group.
		 */
		private Map<String, Limit> ip = new LinkedHashMap<>();

		/**
		 * Quotas counted over every request of the tier, whatever its group, by dimension
		 * (user, org, token, ip): "1000000/month".
		 */
		private Map<String, Limit> quota = new LinkedHashMap<>();

		/**
		 * Limits per value of a key of ratelimit.keys, by key, then endpoint group
		 * ("default" for any other group, "all" for a quota over every group).
		 */
		private Map<String, Map<String, Limit>> keys = new LinkedHashMap<>();

		/**
		 * Mode of the tier's limits; unset: ratelimit.mode.
		 */
		private @Nullable Mode mode;

		/**
		 * Soft limit of the tier's limits (for example 80%); unset: ratelimit.warn-at.
		 */
		private @Nullable WarnAt warnAt;

		/**
		 * Automatic bans for refusals of the tier's callers; each unset setting is
		 * ratelimit.bans'.
		 */
		private final BanSettings bans = new BanSettings();

		/**
		 * Priority of the tier's requests when the service sheds load: low, normal, high,
		 * critical (never shed) or a number from 0 to 100; unset: normal.
		 */
		private @Nullable Priority priority;

		public @Nullable Priority getPriority() {
			return this.priority;
		}

		public void setPriority(@Nullable Priority priority) {
			this.priority = priority;
		}

		public BanSettings getBans() {
			return this.bans;
		}

		public Map<String, Limit> getUser() {
			return this.user;
		}

		public void setUser(Map<String, Limit> user) {
			this.user = user;
		}

		public Map<String, Limit> getOrg() {
			return this.org;
		}

		public void setOrg(Map<String, Limit> org) {
			this.org = org;
		}

		public Map<String, Limit> getToken() {
			return this.token;
		}

		public void setToken(Map<String, Limit> token) {
			this.token = token;
		}

		public Map<String, Limit> getIp() {
			return this.ip;
		}

		public void setIp(Map<String, Limit> ip) {
			this.ip = ip;
		}

		public Map<String, Limit> getQuota() {
			return this.quota;
		}

		public void setQuota(Map<String, Limit> quota) {
			this.quota = quota;
		}

		public Map<String, Map<String, Limit>> getKeys() {
			return this.keys;
		}

		public void setKeys(Map<String, Map<String, Limit>> keys) {
			this.keys = keys;
		}

		public @Nullable Mode getMode() {
			return this.mode;
		}

		public void setMode(@Nullable Mode mode) {
			this.mode = mode;
		}

		public @Nullable WarnAt getWarnAt() {
			return this.warnAt;
		}

		public void setWarnAt(@Nullable WarnAt warnAt) {
			this.warnAt = warnAt;
		}

	}

	/**
	 * Access rules: callers that bypass every limit or are refused outright.
	 */
	public static class Access {

		/**
		 * Callers that bypass every limit: addresses or CIDR ranges ("203.0.113.0/24"),
		 * {@code user:<name>}, {@code org:<id>} or {@code key:<SHA-256 of the key>}. Add
		 * {@code " as <tier>"} to give them a tier instead ("user:partner-bot as
		 * partner"). Addresses are the client address as resolved through trusted proxies
		 * only.
		 */
		private List<AccessRule> allow = new ArrayList<>();

		/**
		 * Callers refused with 403 (code access_denied) before any limit is checked:
		 * addresses or CIDR ranges, {@code user:<name>}, {@code org:<id>} or
		 * {@code key:<SHA-256 of the key>}. A deny rule wins over an allow rule.
		 */
		private List<Subject> deny = new ArrayList<>();

		public List<AccessRule> getAllow() {
			return this.allow;
		}

		public void setAllow(List<AccessRule> allow) {
			this.allow = allow;
		}

		public List<Subject> getDeny() {
			return this.deny;
		}

		public void setDeny(List<Subject> deny) {
			this.deny = deny;
		}

	}

	/**
	 * Automatic bans: a caller (its user, else its API key, else its address) refused
	 * this often within the window gets 403 (code banned) until the ban ends; a repeat
	 * offender's ban lasts twice as long as its last one, up to max-duration. Off unless
	 * refusals is set here, in a tier or in a group.
	 */
	public static class Bans extends BanSettings {

		/**
		 * The most bans in force at once, in the store and on each instance's heap; while
		 * that many are in force, a refusal that would start one more starts none (the
		 * caller is still rate-limited).
		 */
		private int maxActive = ControlStore.DEFAULT_MAX_ACTIVE_BANS;

		public Bans() {
			setRefusals(0);
			setWindow(BanRules.Settings.DEFAULT_WINDOW);
			setDuration(BanRules.Settings.DEFAULT_DURATION);
			setMaxDuration(BanRules.Settings.DEFAULT_MAX_DURATION);
			setMemory(BanRules.Settings.DEFAULT_MEMORY);
		}

		public int getMaxActive() {
			return this.maxActive;
		}

		public void setMaxActive(int maxActive) {
			this.maxActive = maxActive;
		}

	}

	/**
	 * Ban settings; each unset one is inherited.
	 */
	public static class BanSettings {

		/**
		 * Refusals within the window that start a ban; 0 bans nobody.
		 */
		private @Nullable Integer refusals;

		/**
		 * The window refusals are counted in.
		 */
		private @Nullable Duration window;

		/**
		 * How long a first ban lasts.
		 */
		private @Nullable Duration duration;

		/**
		 * The longest ban, however often the caller offended.
		 */
		private @Nullable Duration maxDuration;

		/**
		 * How long after a ban ends a new ban still counts as a repeat (and lasts twice
		 * as long).
		 */
		private @Nullable Duration memory;

		public @Nullable Integer getRefusals() {
			return this.refusals;
		}

		public void setRefusals(@Nullable Integer refusals) {
			this.refusals = refusals;
		}

		public @Nullable Duration getWindow() {
			return this.window;
		}

		public void setWindow(@Nullable Duration window) {
			this.window = window;
		}

		public @Nullable Duration getDuration() {
			return this.duration;
		}

		public void setDuration(@Nullable Duration duration) {
			this.duration = duration;
		}

		public @Nullable Duration getMaxDuration() {
			return this.maxDuration;
		}

		public void setMaxDuration(@Nullable Duration maxDuration) {
			this.maxDuration = maxDuration;
		}

		public @Nullable Duration getMemory() {
			return this.memory;
		}

		public void setMemory(@Nullable Duration memory) {
			this.memory = memory;
		}

		BanRules.Settings toSettings() {
			return new BanRules.Settings(this.refusals, this.window, this.duration, this.maxDuration, this.memory);
		}

	}

	/**
	 * Runtime control: overrides, access rules and bans set while the application runs,
	 * shared through the store.
	 */
	public static class Control {

		/**
		 * How often each instance asks the store whether overrides, rules or bans
		 * changed: the longest a change made on one instance takes to apply on the
		 * others.
		 */
		private Duration refreshInterval = Duration.ofSeconds(1);

		public Duration getRefreshInterval() {
			return this.refreshInterval;
		}

		public void setRefreshInterval(Duration refreshInterval) {
			this.refreshInterval = refreshInterval;
		}

	}

	/**
	 * Calendar quotas (N/day, N/week, N/month).
	 */
	public static class Quotas {

		/**
		 * Time zone of quota boundaries: days start at midnight there, weeks on Monday,
		 * months on the 1st.
		 */
		private ZoneId zone = ZoneOffset.UTC;

		public ZoneId getZone() {
			return this.zone;
		}

		public void setZone(ZoneId zone) {
			this.zone = zone;
		}

	}

	/**
	 * Requests that wait for tokens (a group's max-wait).
	 */
	public static class Waiting {

		/**
		 * Most requests of this instance waiting at once; beyond it a request that would
		 * wait is refused at once.
		 */
		private int maxRequests = RateLimiter.DEFAULT_MAX_WAITING;

		public int getMaxRequests() {
			return this.maxRequests;
		}

		public void setMaxRequests(int maxRequests) {
			this.maxRequests = maxRequests;
		}

	}

	/**
	 * Where buckets are kept.
	 */
	public static class Storage {

		/**
		 * Storage type: auto picks redis when Spring Data Redis is configured, else
		 * memory.
		 */
		private StorageType type = StorageType.AUTO;

		/**
		 * Prefix of every store key, to keep several applications apart on one Redis.
		 */
		private String keyPrefix = "rl:";

		/**
		 * What to do while the store is unhealthy (not connected, answering errors, or
		 * silent for the timeout): local keeps enforcing with per-instance buckets, open
		 * admits, closed answers 503.
		 */
		private FailureMode failureMode = FailureMode.LOCAL;

		/**
		 * How long Redis may stay silent (answer nothing on the store's connection)
		 * before it counts as down and the decision gets the failure mode. A decision
		 * whose answer is late while Redis keeps answering others waits for it, up to 5s
		 * (or this, when longer).
		 */
		private Duration timeout = RedisStoreDefaults.TIMEOUT;

		private final Memory memory = new Memory();

		private final Redis redis = new Redis();

		public StorageType getType() {
			return this.type;
		}

		public void setType(StorageType type) {
			this.type = type;
		}

		public String getKeyPrefix() {
			return this.keyPrefix;
		}

		public void setKeyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
		}

		public FailureMode getFailureMode() {
			return this.failureMode;
		}

		public void setFailureMode(FailureMode failureMode) {
			this.failureMode = failureMode;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public Memory getMemory() {
			return this.memory;
		}

		public Redis getRedis() {
			return this.redis;
		}

	}

	/**
	 * The kind of store.
	 */
	public enum StorageType {

		/** Redis when Spring Data Redis is configured, else memory. */
		AUTO,

		/** Buckets in this JVM. */
		MEMORY,

		/** Buckets in Redis, shared by every instance. */
		REDIS

	}

	/**
	 * In-memory storage.
	 */
	public static class Memory {

		/**
		 * Most buckets kept in memory for client addresses (anonymous callers' limits and
		 * the per-address backstop); beyond it the least used are evicted (and come back
		 * full). A flood of new addresses evicts only these. Unset: three quarters of the
		 * buckets that fit in a fifth of the heap (about 600 bytes each), at most 750000.
		 */
		private @Nullable Long maxKeys;

		/**
		 * Most buckets kept in memory for users, orgs and tokens (rate buckets, calendar
		 * quotas and concurrency permits); beyond it the least used are evicted (a quota
		 * comes back with its whole period's budget) and a warning is logged. Size it for
		 * the verified callers active within the longest quota period. Unset: a quarter
		 * of the buckets that fit in a fifth of the heap, at most 250000.
		 */
		private @Nullable Long maxIdentifiedKeys;

		public @Nullable Long getMaxKeys() {
			return this.maxKeys;
		}

		public void setMaxKeys(@Nullable Long maxKeys) {
			this.maxKeys = maxKeys;
		}

		public @Nullable Long getMaxIdentifiedKeys() {
			return this.maxIdentifiedKeys;
		}

		public void setMaxIdentifiedKeys(@Nullable Long maxIdentifiedKeys) {
			this.maxIdentifiedKeys = maxIdentifiedKeys;
		}

	}

	/**
	 * Redis storage.
	 */
	public static class Redis {

		/**
		 * How decisions are made in Redis: 'script' (one atomic Lua script per request,
		 * one round trip, Redis's clock) or 'bucket4j' (Bucket4j's compare-and-swap proxy
		 * manager).
		 */
		private RedisStrategy strategy = RedisStrategy.SCRIPT;

		/**
		 * Consecutive store failures that open the circuit breaker.
		 */
		private int failureThreshold = CircuitBreaker.DEFAULT_FAILURE_THRESHOLD;

		/**
		 * How long the open circuit breaker skips Redis before probing it again.
		 */
		private Duration openDuration = CircuitBreaker.DEFAULT_COOL_DOWN;

		/**
		 * How long a concurrency permit's lease lives without renewal: the permits of a
		 * crashed instance are free again after it. Renewed every third of it while the
		 * request runs.
		 */
		private Duration leaseTime = RedisStoreDefaults.LEASE_TIME;

		/**
		 * Whether a refusal Redis gave is remembered until the refused bucket refills,
		 * and requests needing that bucket are refused on this instance without asking
		 * Redis meanwhile (token buckets, windows and quotas; never concurrency caps,
		 * limits that count by outcome, or groups that wait).
		 */
		private boolean localRefusals = true;

		private final HotKeys hotKeys = new HotKeys();

		public boolean isLocalRefusals() {
			return this.localRefusals;
		}

		public void setLocalRefusals(boolean localRefusals) {
			this.localRefusals = localRefusals;
		}

		public HotKeys getHotKeys() {
			return this.hotKeys;
		}

		public Duration getLeaseTime() {
			return this.leaseTime;
		}

		public void setLeaseTime(Duration leaseTime) {
			this.leaseTime = leaseTime;
		}

		public RedisStrategy getStrategy() {
			return this.strategy;
		}

		public void setStrategy(RedisStrategy strategy) {
			this.strategy = strategy;
		}

		public int getFailureThreshold() {
			return this.failureThreshold;
		}

		public void setFailureThreshold(int failureThreshold) {
			this.failureThreshold = failureThreshold;
		}

		public Duration getOpenDuration() {
			return this.openDuration;
		}

		public void setOpenDuration(Duration openDuration) {
			this.openDuration = openDuration;
		}

	}

	/**
	 * Reserves of tokens for hot buckets: a token bucket this instance decides at least a
	 * reserve's worth of times a second takes several tokens from Redis at once and
	 * spends them here, so all instances together still admit no more than the limit.
	 */
	public static class HotKeys {

		/**
		 * The most tokens one bucket's reserve takes at once; a reserve is also at most a
		 * hundredth of the bucket's capacity (so buckets under 200 never take one). 0
		 * turns reserves off.
		 */
		private int maxTokens = HotKeyReserves.DEFAULT_MAX_TOKENS;

		/**
		 * How long a reserve's tokens are held before the unspent ones go back to Redis:
		 * the longest other instances may miss them.
		 */
		private Duration hold = HotKeyReserves.DEFAULT_HOLD;

		public int getMaxTokens() {
			return this.maxTokens;
		}

		public void setMaxTokens(int maxTokens) {
			this.maxTokens = maxTokens;
		}

		public Duration getHold() {
			return this.hold;
		}

		public void setHold(Duration hold) {
			this.hold = hold;
		}

	}

	/**
	 * How decisions are made in Redis.
	 */
	public enum RedisStrategy {

		/** One atomic Lua script per request: one round trip, Redis's clock. */
		SCRIPT,

		/**
		 * Bucket4j's Lettuce compare-and-swap proxy manager, with compensation across
		 * buckets.
		 */
		BUCKET4J

	}

	/**
	 * How callers are identified.
	 */
	public static class Identity {

		/**
		 * Proxies (CIDR ranges) whose X-Forwarded-For and Forwarded headers are believed.
		 * Loopback only by default: behind a load balancer, add its addresses (or the
		 * private ranges it lives in).
		 */
		private List<CidrRange> trustedProxies = new ArrayList<>(
				CidrRange.DEFAULT_TRUSTED_PROXIES.stream().map(CidrRange::parse).toList());

		/**
		 * Header that trusted proxies write the client chain into: x-forwarded-for or
		 * forwarded. Only one is read, since a proxy passes the other one through from
		 * the client unchanged.
		 */
		private ForwardedHeader forwardedHeader = ForwardedHeader.X_FORWARDED_FOR;

		/**
		 * Prefix length by which IPv4 clients are grouped (32: every address on its own).
		 */
		private int ipv4Prefix = ClientIpResolver.DEFAULT_IPV4_PREFIX;

		/**
		 * Prefix length by which IPv6 clients are grouped, so that one host cannot rotate
		 * through its own network.
		 */
		private int ipv6Prefix = ClientIpResolver.DEFAULT_IPV6_PREFIX;

		/**
		 * Token claim or principal attribute holding the organisation.
		 */
		private String orgClaim = "org_id";

		/**
		 * Token claim or principal attribute holding the tier.
		 */
		private String tierClaim = "tier";

		/**
		 * Prefix of granted authorities naming the organisation ("ORG_acme").
		 */
		private String orgAuthorityPrefix = "ORG_";

		/**
		 * Prefix of granted authorities naming the tier ("TIER_premium").
		 */
		private String tierAuthorityPrefix = "TIER_";

		/**
		 * Tier of callers that could not be verified.
		 */
		private String anonymousTier = "anonymous";

		/**
		 * Tier of verified callers that name no configured tier.
		 */
		private String authenticatedTier = "authenticated";

		/**
		 * Request header carrying an API key.
		 */
		private String apiKeyHeader = "X-API-Key";

		/**
		 * Known API keys and whom they identify.
		 */
		private List<ApiKey> apiKeys = new ArrayList<>();

		public List<CidrRange> getTrustedProxies() {
			return this.trustedProxies;
		}

		public void setTrustedProxies(List<CidrRange> trustedProxies) {
			this.trustedProxies = trustedProxies;
		}

		public ForwardedHeader getForwardedHeader() {
			return this.forwardedHeader;
		}

		public void setForwardedHeader(ForwardedHeader forwardedHeader) {
			this.forwardedHeader = forwardedHeader;
		}

		public int getIpv4Prefix() {
			return this.ipv4Prefix;
		}

		public void setIpv4Prefix(int ipv4Prefix) {
			this.ipv4Prefix = ipv4Prefix;
		}

		public int getIpv6Prefix() {
			return this.ipv6Prefix;
		}

		public void setIpv6Prefix(int ipv6Prefix) {
			this.ipv6Prefix = ipv6Prefix;
		}

		public String getOrgClaim() {
			return this.orgClaim;
		}

		public void setOrgClaim(String orgClaim) {
			this.orgClaim = orgClaim;
		}

		public String getTierClaim() {
			return this.tierClaim;
		}

		public void setTierClaim(String tierClaim) {
			this.tierClaim = tierClaim;
		}

		public String getOrgAuthorityPrefix() {
			return this.orgAuthorityPrefix;
		}

		public void setOrgAuthorityPrefix(String orgAuthorityPrefix) {
			this.orgAuthorityPrefix = orgAuthorityPrefix;
		}

		public String getTierAuthorityPrefix() {
			return this.tierAuthorityPrefix;
		}

		public void setTierAuthorityPrefix(String tierAuthorityPrefix) {
			this.tierAuthorityPrefix = tierAuthorityPrefix;
		}

		public String getAnonymousTier() {
			return this.anonymousTier;
		}

		public void setAnonymousTier(String anonymousTier) {
			this.anonymousTier = anonymousTier;
		}

		public String getAuthenticatedTier() {
			return this.authenticatedTier;
		}

		public void setAuthenticatedTier(String authenticatedTier) {
			this.authenticatedTier = authenticatedTier;
		}

		public String getApiKeyHeader() {
			return this.apiKeyHeader;
		}

		public void setApiKeyHeader(String apiKeyHeader) {
			this.apiKeyHeader = apiKeyHeader;
		}

		public List<ApiKey> getApiKeys() {
			return this.apiKeys;
		}

		public void setApiKeys(List<ApiKey> apiKeys) {
			this.apiKeys = apiKeys;
		}

	}

	/**
	 * A configured API key.
	 */
	public static class ApiKey {

		/**
		 * SHA-256 of the key, in hex (preferred: the key itself stays out of
		 * configuration).
		 */
		private @Nullable KeySha256 keySha256;

		/**
		 * The key itself; for demos and tests only.
		 */
		private @Nullable String key;

		/**
		 * User the key identifies.
		 */
		private @Nullable String user;

		/**
		 * Organisation the key identifies.
		 */
		private @Nullable String org;

		/**
		 * Tier of the key's caller.
		 */
		private @Nullable String tier;

		public @Nullable KeySha256 getKeySha256() {
			return this.keySha256;
		}

		public void setKeySha256(@Nullable KeySha256 keySha256) {
			this.keySha256 = keySha256;
		}

		public @Nullable String getKey() {
			return this.key;
		}

		public void setKey(@Nullable String key) {
			this.key = key;
		}

		public @Nullable String getUser() {
			return this.user;
		}

		public void setUser(@Nullable String user) {
			this.user = user;
		}

		public @Nullable String getOrg() {
			return this.org;
		}

		public void setOrg(@Nullable String org) {
			this.org = org;
		}

		public @Nullable String getTier() {
			return this.tier;
		}

		public void setTier(@Nullable String tier) {
			this.tier = tier;
		}

	}

	/**
	 * Response headers.
	 */
	public static class Headers {

		/**
		 * Header families to write: ietf, x-ratelimit, split, draft7, or none.
		 */
		private List<HeaderStyle> styles = new ArrayList<>(List.of(HeaderStyle.IETF, HeaderStyle.X_RATELIMIT));

		public List<HeaderStyle> getStyles() {
			return this.styles;
		}

		public void setStyles(List<HeaderStyle> styles) {
			this.styles = styles;
		}

	}

	/**
	 * The servlet filter.
	 */
	public static class Filter {

		/**
		 * Order of the servlet filter and of the WebFlux filter; by default just after
		 * Spring Security's filter chain so that authenticated callers are known.
		 */
		private int order = RateLimitFilterOrder.DEFAULT;

		/**
		 * Order of the gate before authentication (servlet filter and WebFlux filter),
		 * which refuses denied and banned client addresses; by default just before Spring
		 * Security's filter chain.
		 */
		private int gateOrder = RateLimitFilterOrder.GATE;

		/**
		 * Whether denied and banned client addresses are refused before authentication,
		 * by the gate; off, they are refused only by the limiter, after Spring Security.
		 */
		private boolean gateEnabled = true;

		public int getOrder() {
			return this.order;
		}

		public void setOrder(int order) {
			this.order = order;
		}

		public int getGateOrder() {
			return this.gateOrder;
		}

		public void setGateOrder(int gateOrder) {
			this.gateOrder = gateOrder;
		}

		public boolean isGateEnabled() {
			return this.gateEnabled;
		}

		public void setGateEnabled(boolean gateEnabled) {
			this.gateEnabled = gateEnabled;
		}

	}

	/**
	 * Failed-login protection: budgets of failed login attempts per client address and
	 * per account tried, decided before authentication (before Spring Security), so that
	 * a spent budget refuses an attempt (429) before its password is checked; an address
	 * that keeps trying is banned (403), longer on each repeat. Login attempts are
	 * requests with an Authorization header (HTTP Basic names the account; a bearer token
	 * names none), POSTs to the form login path, and requests to the listed paths, on
	 * every path: the Actuator's and other excluded paths included.
	 */
	public static class LoginProtection {

		// built, not parsed: every limit string at startup is the configuration's, parsed
		// once
		private static final Limit DEFAULT_PER_ADDRESS = new Limit("10/1m",
				List.of(new TokenBucket(10, 10, Duration.ofMinutes(1), "1m")));

		private static final Limit DEFAULT_PER_ACCOUNT = new Limit("20/15m",
				List.of(new TokenBucket(20, 20, Duration.ofMinutes(15), "15m")));

		/**
		 * Whether failed logins are counted and limited.
		 */
		private boolean enabled;

		/**
		 * Failed login attempts allowed per client address (an IPv6 client by its /64),
		 * for example "10/1m".
		 */
		private Limit perAddress = DEFAULT_PER_ADDRESS;

		/**
		 * Failed login attempts allowed per account tried, from any address, for example
		 * "20/15m"; "none" for no per-account budget. Once spent, every attempt on the
		 * account is refused until a token refills, its owner's included.
		 */
		private OptionalLimit perAccount = new OptionalLimit(DEFAULT_PER_ACCOUNT);

		/**
		 * Which final statuses are failed attempts: 401 (the default; a failed form
		 * login's redirect to its failure URL counts as 401), auth-failures (401 and
		 * 403), failures (every 4xx and 5xx), or statuses ("401, 429").
		 */
		private List<CountedResponse> count = new ArrayList<>(List.of(new CountedResponse(null, 401)));

		/**
		 * More paths whose every request is a login attempt (an application's own login
		 * endpoint), in Spring's PathPattern syntax.
		 */
		private List<String> paths = new ArrayList<>();

		private final FormLogin formLogin = new FormLogin();

		/**
		 * Bans of addresses refused for their failed logins: refusals within the window
		 * that start a ban (0 for none), its first duration, the longest, and how long a
		 * repeat is remembered (each repeat doubles it).
		 */
		private final BanSettings bans = new BanSettings();

		public LoginProtection() {
			this.bans.setRefusals(3);
			this.bans.setWindow(Duration.ofMinutes(10));
			this.bans.setDuration(Duration.ofMinutes(15));
			this.bans.setMaxDuration(Duration.ofDays(1));
			this.bans.setMemory(Duration.ofDays(1));
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Limit getPerAddress() {
			return this.perAddress;
		}

		public void setPerAddress(Limit perAddress) {
			this.perAddress = perAddress;
		}

		public OptionalLimit getPerAccount() {
			return this.perAccount;
		}

		public void setPerAccount(OptionalLimit perAccount) {
			this.perAccount = perAccount;
		}

		public List<CountedResponse> getCount() {
			return this.count;
		}

		public void setCount(List<CountedResponse> count) {
			this.count = count;
		}

		public List<String> getPaths() {
			return this.paths;
		}

		public void setPaths(List<String> paths) {
			this.paths = paths;
		}

		public FormLogin getFormLogin() {
			return this.formLogin;
		}

		public BanSettings getBans() {
			return this.bans;
		}

	}

	/**
	 * The form login whose attempts login protection counts (Spring Security's defaults).
	 */
	public static class FormLogin {

		/**
		 * The path login forms are posted to.
		 */
		private String path = "/login";

		/**
		 * The form parameter that names the account.
		 */
		private String usernameParameter = "username";

		/**
		 * Where a failed form login redirects: such a redirect counts as a 401.
		 */
		private String failureUrl = "/login?error";

		public String getPath() {
			return this.path;
		}

		public void setPath(String path) {
			this.path = path;
		}

		public String getUsernameParameter() {
			return this.usernameParameter;
		}

		public void setUsernameParameter(String usernameParameter) {
			this.usernameParameter = usernameParameter;
		}

		public String getFailureUrl() {
			return this.failureUrl;
		}

		public void setFailureUrl(String failureUrl) {
			this.failureUrl = failureUrl;
		}

	}

	/**
	 * The status endpoint callers ask for their own limits (as GitHub's GET /rate_limit):
	 * the calling identity's budgets in every endpoint group, never counted against any
	 * limit.
	 */
	public static class Status {

		/**
		 * Whether callers may ask for their own limits at the status path.
		 */
		private boolean enabled;

		/**
		 * The path of the status endpoint, within the application's context path: a
		 * literal path (no patterns), never limited by the rate limiter.
		 */
		private String path = "/ratelimit";

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getPath() {
			return this.path;
		}

		public void setPath(String path) {
			this.path = path;
		}

	}

}
