package io.github.ratelimit.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts a controller, or one of its handler methods, in an endpoint group and sets what a
 * request costs. The method's annotation wins over the class's; both win over the path
 * patterns of {@code ratelimit.groups}. The group's limits come from
 * {@code ratelimit.tiers.<tier>.<dimension>.<group>} (or {@code default}), so a group
 * named here need not be declared under {@code ratelimit.groups}.
 *
 * <pre class="code">
 * &#64;RateLimited(group = "export", cost = 10)
 * &#64;GetMapping("/v1/export")
 * Export export() { ... }
 * </pre>
 *
 * Functional routes (WebFlux and WebMvc.fn) say the same with route attributes, set right
 * after the route or the nested block they apply to:
 *
 * <pre class="code">
 * RouterFunctions.route()
 *     .GET("/v1/export", handler::export)
 *     .withAttribute(RateLimited.GROUP_ATTRIBUTE, "export")
 *     .withAttribute(RateLimited.COST_ATTRIBUTE, 10)
 *     .GET("/v1/repos/{repo}/stars", handler::stars)
 *     .withAttribute(RateLimited.LIMIT_ATTRIBUTE, "10/1m")
 *     .withAttribute(RateLimited.PER_ATTRIBUTE, "repo")
 *     .build();
 * </pre>
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface RateLimited {

	/**
	 * The route attribute that puts a functional route in an endpoint group: a non-blank
	 * string.
	 */
	String GROUP_ATTRIBUTE = "io.github.ratelimit.group";

	/**
	 * The route attribute that sets what a request to a functional route costs: a whole
	 * number, at least 1.
	 */
	String COST_ATTRIBUTE = "io.github.ratelimit.cost";

	/**
	 * The route attribute that exempts a functional route from every limit: {@code true}.
	 */
	String EXEMPT_ATTRIBUTE = "io.github.ratelimit.exempt";

	/**
	 * The route attribute that gives a functional route a limit of its own, as
	 * {@link #limit()}: a string such as {@code "10/1m"}. Its buckets are named after the
	 * route's method and path ({@code inline-user-GET.v1.reports.id}).
	 */
	String LIMIT_ATTRIBUTE = "io.github.ratelimit.limit";

	/**
	 * The route attribute that says which responses count against the route's own limit,
	 * as {@link #count()}: a string ({@code "failures"}, {@code "401"}), or a
	 * {@code String[]} or list of them.
	 */
	String COUNT_ATTRIBUTE = "io.github.ratelimit.count";

	/**
	 * The route attribute that says whom the route's own limit counts per, as
	 * {@link #per()}: a dimension or the name of a configured key.
	 */
	String PER_ATTRIBUTE = "io.github.ratelimit.per";

	/** The endpoint group; empty keeps the group matched by path (or {@code default}). */
	String group() default "";

	/**
	 * Tokens a request takes from every applicable bucket; 0 keeps the group's configured
	 * cost.
	 */
	long cost() default 0;

	/**
	 * Whether no limit applies to the annotated handlers at all (for example a health
	 * probe).
	 */
	boolean exempt() default false;

	/**
	 * A limit of the annotated handler's own, on top of the tier's limits, in the syntax
	 * of configured limits ({@code "10/1m"}, {@code "10/1m, 100/1h"}): one bucket per
	 * handler and caller, the verified user or else the client address. Empty for none. A
	 * malformed limit stops the start.
	 */
	String limit() default "";

	/**
	 * Which responses count against the handler's own {@link #limit()}: empty or
	 * {@code "all"} for every one; {@code "failures"} (4xx and 5xx),
	 * {@code "auth-failures"} (401 and 403), or statuses ({@code {"401", "403"}}). A
	 * request still takes its token when it starts, so a burst is decided exactly, and
	 * gets it back when its final status is not counted:
	 * {@code @RateLimited(limit = "10/1m",
	 * count = "failures")} lets 10 failed attempts a minute through, and any number of
	 * successful ones.
	 */
	String[] count() default {};

	/**
	 * Whom the handler's own {@link #limit()} counts per: the name of a configured key
	 * ({@code ratelimit.keys.<key>}: a header, a path variable, an expression or a
	 * resolver bean), or {@code user}, {@code org}, {@code token}, {@code ip}, or
	 * {@code service} (one budget that every caller shares). Empty for the verified user,
	 * else the client address. A caller without a value (no such header, an anonymous
	 * caller for {@code user}) is not counted by the limit.
	 * {@code @RateLimited(limit = "10/1m", per = "repo")} gives each repository of the
	 * path its own 10 a minute. A name that is no key stops the start.
	 */
	String per() default "";

}
