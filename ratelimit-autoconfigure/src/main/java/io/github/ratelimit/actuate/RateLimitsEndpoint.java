package io.github.ratelimit.actuate;

import java.time.Clock;
import java.util.List;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import io.github.ratelimit.actuate.ChangeDescriptor.BanLifted;
import io.github.ratelimit.actuate.ChangeDescriptor.OverrideDeleted;
import io.github.ratelimit.actuate.ChangeDescriptor.Reset;
import io.github.ratelimit.actuate.ChangeDescriptor.RuleDeleted;
import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.OperatorInput;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.core.SubjectBuckets;
import io.github.ratelimit.core.TopRefused;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.StoreUnavailableException;

/**
 * The {@code ratelimits} Actuator endpoint. Not exposed unless the application exposes it
 * ({@code management.endpoints.web.exposure.include=ratelimits}); its writes are POST and
 * DELETE requests that Spring Security protects like any other Actuator operation.
 * <ul>
 * <li>{@code GET /actuator/ratelimits}: the policy table, overrides, rules and bans in
 * force, and the most refused callers of this instance (this period and the last, 5
 * minutes each); {@code GET …/{policies|overrides|rules|bans|top}} one of them;</li>
 * <li>{@code GET /actuator/ratelimits/{user|org|key|ip}/{id}}: one identity's buckets,
 * overrides and ban;</li>
 * <li>{@code POST /actuator/ratelimits/overrides} {@code {dimension, id, limit, group?,
 * expires?}}; {@code POST …/reset} {@code {dimension, id}}; {@code POST …/allow}
 * {@code {subject, tier?, expires?}}; {@code POST …/deny} {@code {subject,
 * expires?}};</li>
 * <li>{@code DELETE /actuator/ratelimits/overrides?dimension=&id=&group=};
 * {@code DELETE …/rules?subject=}; {@code DELETE …/bans?subject=}.</li>
 * </ul>
 * Actuator maps one operation per HTTP method and path shape, so every {@code POST
 * …/{action}} shares {@link #write} (and every {@code DELETE …/{section}}
 * {@link #delete}), which takes the union of their parameters and hands each action to
 * the model. {@link OperatorInput} reads the parameters; {@link RuntimeControl} and
 * {@link SubjectBuckets} act; the answers are descriptors.
 * <p>
 * A bad value answers 400 with a message that names the field and shows a valid value,
 * before anything is written; a store that cannot answer, 503.
 */
@Endpoint(id = "ratelimits")
public class RateLimitsEndpoint {

	/** How many callers the top lists show. */
	private static final int TOP_SIZE = 20;

	private final RuntimeControl control;

	private final SubjectBuckets buckets;

	private final TopRefused topRefused;

	private final OperatorInput input;

	private final Clock clock;

	/**
	 * Creates the endpoint.
	 * @param keys the layout of the keys the limiter asks the store about
	 * @param ips the resolver of the application: {@code ip} ids are read as the groups
	 * it counts clients in
	 */
	public RateLimitsEndpoint(RuntimeControl control, RateLimitStore store, StoreKeys keys, TopRefused topRefused,
			Clock clock, ClientIpResolver ips) {
		this(control, store, keys, topRefused, clock, ips, null);
	}

	/**
	 * Creates the endpoint of a limiter that holds some of a remote store's state in
	 * memory (remembered refusals, reserved tokens): a reset forgets the subject's too.
	 * @param keys the layout of the keys the limiter asks the store about
	 * @param ips the resolver of the application: {@code ip} ids are read as the groups
	 * it counts clients in
	 * @param forgetLocally forgets what the limiter holds of buckets in memory
	 * ({@link io.github.ratelimit.core.RateLimiter#forgetLocally}), or {@code null}
	 */
	public RateLimitsEndpoint(RuntimeControl control, RateLimitStore store, StoreKeys keys, TopRefused topRefused,
			Clock clock, ClientIpResolver ips, @Nullable Consumer<List<LimitCheck>> forgetLocally) {
		this.control = control;
		this.buckets = new SubjectBuckets(control, store, keys, forgetLocally);
		this.topRefused = topRefused;
		this.input = new OperatorInput(ips, clock);
		this.clock = clock;
	}

	@ReadOperation
	public RateLimitsDescriptor ratelimits() {
		return new RateLimitsDescriptor(PolicyDescriptor.tableOf(this.control.table()), overrides(), rules(), bans(),
				TopDescriptor.of(this.topRefused, TOP_SIZE), this.control.refreshInterval().toString());
	}

	@ReadOperation
	public WebEndpointResponse<OperationResponseBody> section(@Selector String section) {
		return switch (section) {
			case "policies" -> Answers.ok(new RateLimitsDescriptor(PolicyDescriptor.tableOf(this.control.table()), null,
					null, null, null, null));
			case "overrides" -> Answers.ok(new RateLimitsDescriptor(null, overrides(), null, null, null, null));
			case "rules" -> Answers.ok(new RateLimitsDescriptor(null, null, rules(), null, null, null));
			case "bans" -> Answers.ok(new RateLimitsDescriptor(null, null, null, bans(), null, null));
			case "top" -> Answers.ok(new RateLimitsDescriptor(null, null, null, null,
					TopDescriptor.of(this.topRefused, TOP_SIZE), null));
			default -> Answers.notFound(section);
		};
	}

	@ReadOperation
	public WebEndpointResponse<OperationResponseBody> identity(@Selector String dimension, @Selector String id) {
		return Answers.of(StoreUnavailableException.class, () -> {
			Subject named = this.input.identity(dimension, id);
			return SubjectDescriptor.of(named, this.control.overridesOf(named.dimension(), named.value()),
					this.control.ban(named), () -> this.buckets.read(named), this.clock.millis());
		});
	}

	@WriteOperation
	public WebEndpointResponse<OperationResponseBody> write(@Selector String section, @Nullable String dimension,
			@Nullable String id, @Nullable String group, @Nullable String limit, @Nullable String expires,
			@Nullable String subject, @Nullable String tier) {
		return switch (section) {
			case "overrides" -> Answers.of(() -> {
				Subject named = this.input.identity(dimension, id);
				return OverrideDescriptor.of(this.control.setOverride(named.dimension(), named.value(),
						this.input.group(group), this.input.limit(limit), this.input.expiry(expires)));
			});
			case "reset" -> Answers.of(() -> {
				Subject named = this.input.identity(dimension, id);
				return new Reset(this.buckets.reset(named), named.dimension().key(), named.value());
			});
			case "allow" -> Answers.of(() -> setRule(this.input.rule(AccessRule.Access.ALLOW, subject, tier, expires)));
			case "deny" -> Answers.of(() -> setRule(this.input.rule(AccessRule.Access.DENY, subject, tier, expires)));
			default -> Answers.notFound(section);
		};
	}

	@DeleteOperation
	public WebEndpointResponse<OperationResponseBody> delete(@Selector String section, @Nullable String dimension,
			@Nullable String id, @Nullable String group, @Nullable String subject) {
		return switch (section) {
			case "overrides" -> Answers.of(() -> {
				Subject named = this.input.identity(dimension, id);
				String overrideGroup = this.input.group(group);
				boolean deleted = this.control.deleteOverride(named.dimension(), named.value(), overrideGroup);
				return new OverrideDeleted(deleted, named.dimension().key(), named.value(), overrideGroup);
			});
			case "rules" -> Answers.of(() -> {
				Subject named = this.input.ruled(subject);
				return new RuleDeleted(this.control.deleteRule(named), named.toString());
			});
			case "bans" -> Answers.of(() -> {
				Subject named = this.input.banned(subject);
				return new BanLifted(this.control.liftBan(named), named.banKey());
			});
			default -> Answers.notFound(section);
		};
	}

	private RuleDescriptor setRule(AccessRule rule) {
		this.control.setRule(rule);
		return RuleDescriptor.of(rule, false);
	}

	private List<OverrideDescriptor> overrides() {
		return this.control.overrides().stream().map(OverrideDescriptor::of).toList();
	}

	private List<RuleDescriptor> rules() {
		return this.control.rules()
			.stream()
			.map((rule) -> RuleDescriptor.of(rule, this.control.isConfigured(rule)))
			.toList();
	}

	private List<BanDescriptor> bans() {
		return BanDescriptor.listOf(this.control.bans(), this.clock.millis());
	}

}
