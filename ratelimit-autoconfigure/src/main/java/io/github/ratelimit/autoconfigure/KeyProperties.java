package io.github.ratelimit.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Limit;

/**
 * A key of the application's choosing ({@code ratelimit.keys.<key>}): where its value
 * comes from (exactly one source) and its limits for every tier.
 */
public class KeyProperties {

	/**
	 * Request header whose (first) value is the key, for example X-Tenant-Id.
	 */
	private @Nullable String header;

	/**
	 * Path variable, of the ratelimit.groups pattern or the @RateLimited handler's
	 * mapping that classified the request, whose value is the key, for example repo of
	 * /v1/repos/{repo}/**.
	 */
	private @Nullable String pathVariable;

	/**
	 * Spring Expression over request (method, path, header(name), pathVariable(name)) and
	 * identity (user, org, ip, tier, authenticated) that computes the key, for example
	 * request.header('X-Product'). Read-only: no types, constructors or beans.
	 */
	private @Nullable String expression;

	/**
	 * Name of a bean implementing io.github.ratelimit.identity.RequestKeyResolver that
	 * reads the key.
	 */
	private @Nullable String bean;

	/**
	 * Limits per value of the key for every tier, by endpoint group ("default" for any
	 * other group).
	 */
	private Map<String, Limit> limits = new LinkedHashMap<>();

	public @Nullable String getHeader() {
		return this.header;
	}

	public void setHeader(@Nullable String header) {
		this.header = header;
	}

	public @Nullable String getPathVariable() {
		return this.pathVariable;
	}

	public void setPathVariable(@Nullable String pathVariable) {
		this.pathVariable = pathVariable;
	}

	public @Nullable String getExpression() {
		return this.expression;
	}

	public void setExpression(@Nullable String expression) {
		this.expression = expression;
	}

	public @Nullable String getBean() {
		return this.bean;
	}

	public void setBean(@Nullable String bean) {
		this.bean = bean;
	}

	public Map<String, Limit> getLimits() {
		return this.limits;
	}

	public void setLimits(Map<String, Limit> limits) {
		this.limits = limits;
	}

}
