/**
 * Rule: every container runs hardened, whatever its pod: a non-root user, no privilege
 * escalation, a read-only root file system with /tmp on an emptyDir, every capability dropped
 * and none added, the runtime's default seccomp profile. Container settings win over the pod's,
 * as in the kubelet.
 */
import type { Container, PodSecurityContext } from 'kubernetes-types/core/v1.js';
import type { PodTemplate } from '../pod-templates.js';
import { containerFindings } from './container-findings.js';
import type { Rule } from './violation.js';

function weaknesses(container: Container, pod: PodTemplate): string[] {
  const own = container.securityContext ?? {};
  const podContext: PodSecurityContext = pod.spec.securityContext ?? {};
  const found: string[] = [];
  if ((own.runAsNonRoot ?? podContext.runAsNonRoot) !== true)
    found.push('runAsNonRoot is not true');
  if ((own.runAsUser ?? podContext.runAsUser) === 0) found.push('runs as user 0');
  if (own.allowPrivilegeEscalation !== false) found.push('allowPrivilegeEscalation is not false');
  if (own.privileged === true) found.push('is privileged');
  if (own.readOnlyRootFilesystem !== true) found.push('readOnlyRootFilesystem is not true');
  if (!(own.capabilities?.drop ?? []).includes('ALL')) found.push('does not drop ALL capabilities');
  if ((own.capabilities?.add ?? []).length > 0) found.push('adds capabilities');
  if ((own.seccompProfile ?? podContext.seccompProfile)?.type !== 'RuntimeDefault')
    found.push('seccompProfile is not RuntimeDefault');
  const tmp = (container.volumeMounts ?? []).find((mount) => mount.mountPath === '/tmp');
  const tmpVolume = pod.spec.volumes?.find((volume) => volume.name === tmp?.name);
  if (!tmpVolume?.emptyDir) found.push('has no emptyDir at /tmp');
  return found;
}

export const containerHardening: Rule = {
  name: 'container-hardening',
  description:
    'every container: runAsNonRoot, no privilege escalation, read-only root with an emptyDir /tmp, capabilities dropped, RuntimeDefault seccomp',
  check(objects) {
    return containerFindings(this.name, objects, weaknesses);
  },
};
