package io.github.ratelimit.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanNotOfRequiredTypeException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;

import io.github.ratelimit.annotation.RateLimited;
import io.github.ratelimit.core.RequestKeys;
import io.github.ratelimit.identity.RequestKeyResolver;
import io.github.ratelimit.keys.ExpressionKeyResolver;
import io.github.ratelimit.keys.HeaderKeyResolver;
import io.github.ratelimit.keys.PathVariableKeyResolver;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.InlineLimit;
import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.policy.KeyLimits;
import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.web.EndpointClassifier;
import io.github.ratelimit.web.EndpointRule;

/**
 * Maps {@code ratelimit.keys} and the tiers' limits by key into the limiter's
 * {@link RequestKeys} and the policy table's {@link KeyLimits}, failing on the first
 * invalid property with an {@link InvalidRateLimitConfigurationException} that names it
 * and shows a valid value: a key with no source or several, a malformed or unsafe
 * expression, a bean that is missing or of another type, a key or group no limit can
 * name, a path variable that the patterns of a group limited by it lack.
 */
final class KeyMapper {

	private static final String KEYS = "ratelimit.keys.";

	private KeyMapper() {
	}

	/**
	 * The limits by key, each key checked to have a valid name and exactly one source,
	 * and each limit to name a configured key and group.
	 */
	static KeyLimits keyLimits(RateLimitProperties properties) {
		Map<String, KeyProperties> keys = properties.getKeys();
		keys.forEach(KeyMapper::checkKey);
		Set<String> groups = new LinkedHashSet<>(properties.getGroups().keySet());
		groups.add(Classification.DEFAULT_GROUP);
		Map<String, Map<String, Map<String, Limit>>> tiers = new LinkedHashMap<>();
		properties.getTiers().forEach((tier, definition) -> {
			Map<String, Map<String, Limit>> byKey = new LinkedHashMap<>();
			definition.getKeys().forEach((key, limits) -> {
				String property = "ratelimit.tiers." + tier + ".keys." + key;
				if (!keys.containsKey(key)) {
					throw new InvalidRateLimitConfigurationException(property, key,
							"no key '" + key + "' is configured under ratelimit.keys" + configured(keys.keySet()),
							KEYS + key + ".header=X-Tenant-Id");
				}
				checkGroups(property, limits, groups, true);
				if (!limits.isEmpty()) {
					byKey.put(key, new LinkedHashMap<>(limits));
				}
			});
			if (!byKey.isEmpty()) {
				tiers.put(tier, byKey);
			}
		});
		Map<String, Map<String, Limit>> everyTier = new LinkedHashMap<>();
		keys.forEach((key, definition) -> {
			checkGroups(KEYS + key + ".limits", definition.getLimits(), groups, false);
			if (!definition.getLimits().isEmpty()) {
				everyTier.put(key, new LinkedHashMap<>(definition.getLimits()));
			}
		});
		return new KeyLimits(tiers, everyTier);
	}

	private static void checkKey(String key, KeyProperties definition) {
		if (!KeyLimits.isValidKeyName(key)) {
			throw new InvalidRateLimitConfigurationException(KEYS + key, key,
					"key names may hold letters, digits, '.', '_' and '-' (at most 64), and may not be a dimension's "
							+ "(user, org, token, ip, service)",
					KEYS + "tenant.header=X-Tenant-Id");
		}
		List<String> sources = sources(definition);
		if (sources.size() != 1) {
			throw new InvalidRateLimitConfigurationException(KEYS + key,
					sources.isEmpty() ? "no source" : String.join(", ", sources),
					"a key reads its value from exactly one source: header, path-variable, expression or bean",
					KEYS + key + ".header=X-Tenant-Id");
		}
	}

	private static List<String> sources(KeyProperties definition) {
		List<String> sources = new ArrayList<>(1);
		addIfSet(sources, "header", definition.getHeader());
		addIfSet(sources, "path-variable", definition.getPathVariable());
		addIfSet(sources, "expression", definition.getExpression());
		addIfSet(sources, "bean", definition.getBean());
		return sources;
	}

	private static void addIfSet(List<String> sources, String source, @Nullable String value) {
		if (value != null && !value.isBlank()) {
			sources.add(source + "=" + value);
		}
	}

	private static void checkGroups(String property, Map<String, Limit> limits, Set<String> groups, boolean tier) {
		limits.forEach((group, limit) -> {
			if (!groups.contains(group) && !(tier && Policy.ALL_GROUPS.equals(group))) {
				throw new InvalidRateLimitConfigurationException(
						property + "." + group, limit.spec(), "unknown endpoint group '" + group
								+ "'; known groups are " + groups + " (declare it under ratelimit.groups)",
						property + ".default=" + LimitParser.EXAMPLE);
			}
		});
	}

	private static String configured(Set<String> keys) {
		return keys.isEmpty() ? "" : "; configured keys are " + keys;
	}

	/**
	 * The resolver of every key: header, path-variable and expression sources built here
	 * (each expression parsed once), beans looked up by name.
	 */
	static RequestKeys requestKeys(RateLimitProperties properties, BeanFactory beans) {
		Map<String, RequestKeyResolver> resolvers = new LinkedHashMap<>();
		properties.getKeys().forEach((key, definition) -> {
			checkKey(key, definition);
			resolvers.put(key, resolver(key, definition, beans));
		});
		return new RequestKeys(resolvers);
	}

	private static RequestKeyResolver resolver(String key, KeyProperties definition, BeanFactory beans) {
		String property = KEYS + key;
		if (isSet(definition.getHeader())) {
			String header = definition.getHeader().strip();
			if (!header.chars().allMatch(KeyMapper::isTokenChar)) {
				throw new InvalidRateLimitConfigurationException(property + ".header", header,
						"not a header name (letters, digits and !#$%&'*+-.^_`|~)", "X-Tenant-Id");
			}
			return new HeaderKeyResolver(header);
		}
		if (isSet(definition.getPathVariable())) {
			return new PathVariableKeyResolver(definition.getPathVariable().strip());
		}
		if (isSet(definition.getExpression())) {
			try {
				return new ExpressionKeyResolver(definition.getExpression());
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidRateLimitConfigurationException(property + ".expression", definition.getExpression(),
						ex.getMessage(), "request.header('X-Product')");
			}
		}
		String bean = definition.getBean().strip();
		try {
			return beans.getBean(bean, RequestKeyResolver.class);
		}
		catch (BeanNotOfRequiredTypeException ex) {
			throw new InvalidRateLimitConfigurationException(property + ".bean", bean, "bean '" + bean + "' is a "
					+ ex.getActualType().getName() + ", not a " + RequestKeyResolver.class.getName(),
					resolverExample(beans));
		}
		catch (NoSuchBeanDefinitionException ex) {
			throw new InvalidRateLimitConfigurationException(property + ".bean", bean,
					"no bean named '" + bean + "'; name a bean that implements " + RequestKeyResolver.class.getName(),
					resolverExample(beans));
		}
	}

	private static String resolverExample(BeanFactory beans) {
		if (beans instanceof ListableBeanFactory listable) {
			String[] names = listable.getBeanNamesForType(RequestKeyResolver.class);
			if (names.length > 0) {
				return names[0];
			}
		}
		return "regionKeyResolver";
	}

	private static boolean isSet(@Nullable String value) {
		return value != null && !value.isBlank();
	}

	// RFC 9110 tchar
	private static boolean isTokenChar(int c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
				|| "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
	}

	/**
	 * Checks, once the handlers and routes are known, that every {@code per} of a
	 * {@code @RateLimited} limit names a dimension or a configured key, and that the
	 * patterns that classify requests into a group limited by a path variable's key hold
	 * that variable (a pattern without it would leave the limit out of every request).
	 */
	static void checkHandlers(RateLimitProperties properties, EndpointClassifier classifier) {
		Map<String, String> variables = new LinkedHashMap<>();
		properties.getKeys().forEach((key, definition) -> {
			if (isSet(definition.getPathVariable())) {
				variables.put(key, definition.getPathVariable().strip());
			}
		});
		for (EndpointRule rule : classifier.annotatedRules()) {
			InlineLimit inline = rule.inline();
			if (inline != null && inline.perDimension() == Dimension.KEY) {
				checkPer(properties, rule, inline, variables);
			}
		}
		variables.forEach((key, variable) -> {
			for (String group : groupsLimitedBy(properties, key)) {
				checkGroupPatterns(properties, classifier, key, variable, group);
			}
		});
	}

	private static void checkPer(RateLimitProperties properties, EndpointRule rule, InlineLimit inline,
			Map<String, String> variables) {
		String per = inline.per();
		String where = (rule.route() != null)
				? "route attribute " + RateLimited.PER_ATTRIBUTE + " of route " + rule.route()
				: "@RateLimited(per) of " + inline.handler();
		if (!properties.getKeys().containsKey(per)) {
			throw new InvalidRateLimitConfigurationException(where, per,
					"'" + per + "' is neither a dimension (user, org, token, ip, service) nor a key of ratelimit.keys"
							+ configured(properties.getKeys().keySet()),
					"ratelimit.keys." + per + ".header=X-Tenant-Id, or "
							+ ((rule.route() != null) ? ".withAttribute(RateLimited.PER_ATTRIBUTE, \"user\")"
									: "@RateLimited(limit = \"" + inline.limit().spec() + "\", per = \"user\")"));
		}
		String variable = variables.get(per);
		String pattern = rule.pattern().getPatternString();
		if (variable != null && !patternVariables(pattern).contains(variable)) {
			throw new InvalidRateLimitConfigurationException(where, per, "key '" + per + "' reads path variable '"
					+ variable + "', which the handler's mapping " + pattern + " lacks",
					"a mapping such as /v1/repos/{" + variable + "}/issues");
		}
	}

	private static Set<String> groupsLimitedBy(RateLimitProperties properties, String key) {
		Set<String> groups = new LinkedHashSet<>(properties.getKeys().get(key).getLimits().keySet());
		properties.getTiers()
			.values()
			.forEach((tier) -> groups.addAll(tier.getKeys().getOrDefault(key, Map.of()).keySet()));
		// default and all hold requests of any pattern: nothing to tell
		groups.remove(Classification.DEFAULT_GROUP);
		groups.remove(Policy.ALL_GROUPS);
		return groups;
	}

	private static void checkGroupPatterns(RateLimitProperties properties, EndpointClassifier classifier, String key,
			String variable, String group) {
		RateLimitProperties.Group definition = properties.getGroups().get(group);
		List<String> paths = (definition != null) ? definition.getPaths() : List.of();
		for (int i = 0; i < paths.size(); i++) {
			if (!patternVariables(paths.get(i)).contains(variable)) {
				throw new InvalidRateLimitConfigurationException("ratelimit.groups." + group + ".paths[" + i + "]",
						paths.get(i),
						"group '" + group + "' is limited by key '" + key + "', which reads path variable '" + variable
								+ "'; this pattern lacks it, so its requests would never be counted",
						"/v1/repos/{" + variable + "}/**");
			}
		}
		if (!paths.isEmpty()) {
			return;
		}
		// a group that only handlers name: their mappings classify its requests
		for (EndpointRule rule : classifier.annotatedRules()) {
			String pattern = rule.pattern().getPatternString();
			if (group.equals(rule.group()) && !patternVariables(pattern).contains(variable)) {
				throw new InvalidRateLimitConfigurationException("ratelimit.groups." + group, pattern,
						"group '" + group + "' is limited by key '" + key + "', which reads path variable '" + variable
								+ "'; the mapping " + pattern + " of a handler in the group lacks it",
						"a mapping such as /v1/repos/{" + variable + "}/issues");
			}
		}
	}

	/**
	 * The names of a path pattern's variables: {@code {name}}, {@code {name:regex}},
	 * {@code {*name}}.
	 */
	static Set<String> patternVariables(String pattern) {
		Set<String> names = new LinkedHashSet<>();
		int depth = 0;
		@Nullable StringBuilder name = null;
		for (int i = 0; i < pattern.length(); i++) {
			char c = pattern.charAt(i);
			if (c == '{') {
				depth++;
				if (depth == 1) {
					name = new StringBuilder();
					continue;
				}
			}
			else if (c == '}') {
				depth--;
				if (depth == 0 && name != null) {
					names.add(name.toString());
					name = null;
				}
			}
			if (depth == 1 && name != null) {
				if (c == ':') {
					names.add(name.toString());
					name = null;
				}
				else if (c != '*') {
					name.append(c);
				}
			}
		}
		return names;
	}

}
