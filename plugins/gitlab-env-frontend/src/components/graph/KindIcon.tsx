import * as React from 'react';
import { SvgIconProps } from '@mui/material/SvgIcon';
import LayersIcon from '@mui/icons-material/Layers';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import ViewInArIcon from '@mui/icons-material/ViewInAr';
import LanIcon from '@mui/icons-material/Lan';
import PublicIcon from '@mui/icons-material/Public';
import StorageIcon from '@mui/icons-material/Storage';
import DnsIcon from '@mui/icons-material/Dns';
import DeviceHubIcon from '@mui/icons-material/DeviceHub';
import WorkIcon from '@mui/icons-material/Work';
import ScheduleIcon from '@mui/icons-material/Schedule';
import SettingsIcon from '@mui/icons-material/Settings';
import KeyIcon from '@mui/icons-material/Key';
import OpenInFullIcon from '@mui/icons-material/OpenInFull';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import SailingIcon from '@mui/icons-material/Sailing';
import SourceIcon from '@mui/icons-material/Source';
import EventNoteIcon from '@mui/icons-material/EventNote';
import HubIcon from '@mui/icons-material/Hub';
import CategoryIcon from '@mui/icons-material/Category';

const ICONS: Record<string, React.ComponentType<SvgIconProps>> = {
  Deployment: LayersIcon,
  ReplicaSet: ContentCopyIcon,
  Pod: ViewInArIcon,
  Service: LanIcon,
  Ingress: PublicIcon,
  PersistentVolumeClaim: StorageIcon,
  StatefulSet: DnsIcon,
  DaemonSet: DeviceHubIcon,
  Job: WorkIcon,
  CronJob: ScheduleIcon,
  ConfigMap: SettingsIcon,
  Secret: KeyIcon,
  HorizontalPodAutoscaler: OpenInFullIcon,
  Kustomization: AccountTreeIcon,
  HelmRelease: SailingIcon,
  GitRepository: SourceIcon,
  OCIRepository: SourceIcon,
  HelmRepository: SourceIcon,
  Event: EventNoteIcon,
  EndpointSlice: HubIcon,
  Endpoints: HubIcon,
};

export function KindIcon({ kind, ...props }: { kind: string } & SvgIconProps) {
  const Icon = ICONS[kind] ?? CategoryIcon;
  return <Icon aria-hidden {...props} />;
}
