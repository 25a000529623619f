public enum TrapsKit {}
