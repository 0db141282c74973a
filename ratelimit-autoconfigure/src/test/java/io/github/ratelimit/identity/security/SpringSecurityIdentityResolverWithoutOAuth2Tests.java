package io.github.ratelimit.identity.security;

import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.security.authentication.TestingAuthenticationToken;

import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.identity.ResolvedIdentity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests that {@link SpringSecurityIdentityResolver} works when
 * {@code spring-security-oauth2-core}, an optional dependency, is missing. The starter's
 * classes are loaded afresh by a class loader that cannot see OAuth2.
 */
class SpringSecurityIdentityResolverWithoutOAuth2Tests {

	@Test
	void readsAuthoritiesWhenOAuth2IsMissing() throws Exception {
		URL classes = SpringSecurityIdentityResolver.class.getProtectionDomain().getCodeSource().getLocation();
		// the parent hides OAuth2, and the starter's classes so that the child loads them
		// itself
		FilteredClassLoader parent = new FilteredClassLoader("org.springframework.security.oauth2.",
				"io.github.ratelimit.");
		try (parent; URLClassLoader loader = new URLClassLoader(new URL[] { classes }, parent)) {
			assertThatExceptionOfType(ClassNotFoundException.class)
				.isThrownBy(() -> loader.loadClass("org.springframework.security.oauth2.core.ClaimAccessor"));
			Class<?> resolverType = loader.loadClass(SpringSecurityIdentityResolver.class.getName());
			assertThat(resolverType.getClassLoader()).isSameAs(loader);
			Class<?> requestType = loader.loadClass(ClientRequest.class.getName());
			TestingAuthenticationToken authentication = new TestingAuthenticationToken("alice", null, "ORG_acme",
					"TIER_premium");
			Object request = Proxy.newProxyInstance(loader, new Class<?>[] { requestType },
					(proxy, method, args) -> switch (method.getName()) {
						case "principal" -> authentication;
						case "remoteAddress" -> "203.0.113.7";
						case "headers" -> List.of();
						default -> null;
					});
			Object resolver = resolverType.getConstructor().newInstance();
			Object caller = resolverType.getMethod("resolve", requestType).invoke(resolver, request);
			assertThat(caller).hasToString(new ResolvedIdentity("alice", "acme", "premium", null).toString());
		}
	}

}
