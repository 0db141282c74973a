package io.github.ratelimit.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import io.github.ratelimit.control.BanRule;
import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.identity.LoginAccountResolver;
import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.CountedResponse;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.web.LoginAttempts;

/**
 * Maps {@code ratelimit.login-protection} into the limiter's login protection and the
 * gate's rules of login attempts, failing on the first invalid property with an
 * {@link InvalidRateLimitConfigurationException} that names it and shows a valid value.
 */
final class LoginProtectionMapper {

	private LoginProtectionMapper() {
	}

	/** Failed-login protection, or {@code null} when it is off. */
	static io.github.ratelimit.core.@Nullable LoginProtection loginProtection(RateLimitProperties properties) {
		RateLimitProperties.LoginProtection login = properties.getLoginProtection();
		if (!login.isEnabled()) {
			return null;
		}
		String property = "ratelimit.login-protection";
		if (!properties.getFilter().isGateEnabled()) {
			// the gate before authentication is what counts attempts: without it nothing
			// would be protected
			throw new InvalidRateLimitConfigurationException(property + ".enabled", true,
					"login protection needs the gate before authentication, which ratelimit.filter.gate-enabled=false "
							+ "turns off",
					"false");
		}
		// the binder parsed each limit and each counted status
		Limit perAddress = failureLimit(property + ".per-address", login.getPerAddress(), "10/1m");
		Limit perAccountLimit = login.getPerAccount().limit();
		Limit perAccount = (perAccountLimit != null)
				? failureLimit(property + ".per-account", perAccountLimit, "20/15m") : null;
		CountedResponses failures;
		try {
			failures = CountedResponses.of(login.getCount());
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidRateLimitConfigurationException(property + ".count", countSpec(login.getCount()),
					ex.getMessage(), "401");
		}
		if (failures.all()) {
			throw new InvalidRateLimitConfigurationException(property + ".count", countSpec(login.getCount()),
					"login protection counts failed attempts only", "401");
		}
		BanRules.Settings bans = login.getBans().toSettings();
		RuntimeControlMapper.checkBans(property + ".bans", bans);
		BanRule rule;
		try {
			rule = new BanRules(bans, Map.of(), Map.of()).ruleFor("", "");
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidRateLimitConfigurationException(property + ".bans.max-duration", bans.maxDuration(),
					ex.getMessage(), "24h");
		}
		checkFormLogin(property + ".form-login", login.getFormLogin());
		return new io.github.ratelimit.core.LoginProtection(perAddress, perAccount, failures, rule);
	}

	private static Limit failureLimit(String property, Limit limit, String example) {
		if (limit.blocked() || limit.has(ConcurrencyLimit.class)) {
			throw new InvalidRateLimitConfigurationException(property, limit.spec(),
					"must be a number of failed attempts over a period", example);
		}
		return limit;
	}

	/** Counted responses as configured, for messages ({@code failures, 401}). */
	static String countSpec(List<CountedResponse> values) {
		return String.join(", ", values.stream().map(CountedResponse::toString).toList());
	}

	private static void checkFormLogin(String property, RateLimitProperties.FormLogin form) {
		if (form.getPath() == null || !form.getPath().startsWith("/")) {
			throw new InvalidRateLimitConfigurationException(property + ".path", form.getPath(),
					"must be a path starting with /", "/login");
		}
		if (form.getUsernameParameter() == null || form.getUsernameParameter().isBlank()) {
			throw new InvalidRateLimitConfigurationException(property + ".username-parameter",
					form.getUsernameParameter(), "must not be empty", "username");
		}
		if (form.getFailureUrl() == null || form.getFailureUrl().isBlank()) {
			throw new InvalidRateLimitConfigurationException(property + ".failure-url", form.getFailureUrl(),
					"must not be empty", "/login?error");
		}
	}

	/**
	 * Which requests are login attempts, or {@code null} when logins are not protected.
	 */
	static @Nullable LoginAttempts loginAttempts(RateLimitProperties properties,
			@Nullable LoginAccountResolver resolver) {
		RateLimitProperties.LoginProtection login = properties.getLoginProtection();
		if (!login.isEnabled()) {
			return null;
		}
		RateLimitProperties.FormLogin form = login.getFormLogin();
		checkFormLogin("ratelimit.login-protection.form-login", form);
		PathPattern formPath = pathPattern("ratelimit.login-protection.form-login.path", form.getPath());
		List<PathPattern> paths = new ArrayList<>();
		for (String path : login.getPaths()) {
			paths.add(pathPattern("ratelimit.login-protection.paths", path));
		}
		return new LoginAttempts(formPath, form.getUsernameParameter(), form.getFailureUrl(), paths, resolver);
	}

	private static PathPattern pathPattern(String property, @Nullable String path) {
		try {
			return PathPatternParser.defaultInstance.parse((path != null) ? path : "");
		}
		catch (RuntimeException ex) {
			throw new InvalidRateLimitConfigurationException(property, path, ex.getMessage(), "/api/login");
		}
	}

}
